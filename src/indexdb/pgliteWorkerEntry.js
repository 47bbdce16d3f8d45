/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS bootstrap by necessity */
// Entry of the embedded PostgreSQL (PGlite) worker thread. Worker threads load plain JavaScript,
// while this code runs from the TypeScript sources under jest, from .build/ in a checkout and from
// dist/ once built: with a pgliteWorker.ts beside this file, tsx compiles it on load; otherwise the
// compiled pgliteWorker.js is used.
const fs = require('node:fs');
const path = require('node:path');

const source = path.join(__dirname, 'pgliteWorker.ts');
if (fs.existsSync(source)) {
  require('tsx/cjs/api').register();
  require(source);
} else {
  require('./pgliteWorker.js');
}
