/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS bootstrap by necessity */
// Entry of the local chain's worker thread (see localnetThread.ts). As for the TVM threads: from
// the TypeScript sources under `npm start` (tsx) and jest, from dist/ once built.
const fs = require('node:fs');
const path = require('node:path');

const source = path.join(__dirname, 'worker.ts');
if (fs.existsSync(source)) {
  require('tsx/cjs/api').register();
  require(source);
} else {
  require('./worker.js');
}
