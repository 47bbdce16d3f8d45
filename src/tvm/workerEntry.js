/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS bootstrap by necessity */
// Entry of a TVM worker thread. Piscina loads plain JavaScript, while this code runs from the
// TypeScript sources under `npm start` (tsx) and jest, and from dist/ once built: with a
// worker.ts beside this file, tsx compiles it on load; otherwise the compiled worker.js is used.
const fs = require('node:fs');
const path = require('node:path');

const source = path.join(__dirname, 'worker.ts');
if (fs.existsSync(source)) {
  require('tsx/cjs/api').register();
  module.exports = require(source).default;
} else {
  module.exports = require('./worker.js').default;
}
