/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS bootstrap by necessity */
// Entry of a v3 answer thread (pool.ts), as src/tvm/workerEntry.js: piscina loads plain
// JavaScript; with worker.ts beside this file (the sources under tsx and jest) tsx compiles it on
// load, otherwise (.build/, dist/) the compiled worker.js is used.
const fs = require('node:fs');
const path = require('node:path');

const source = path.join(__dirname, 'worker.ts');
if (fs.existsSync(source)) {
  require('tsx/cjs/api').register();
  module.exports = require(source).default;
} else {
  module.exports = require('./worker.js').default;
}
