/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS bootstrap by necessity */
// Entry of the index thread (see indexThread.ts). As for the TVM and local chain threads: from the
// TypeScript sources under jest and tsx, from .build/ or dist/ once compiled.
const fs = require('node:fs');
const path = require('node:path');

const source = path.join(__dirname, 'indexThreadWorker.ts');
if (fs.existsSync(source)) {
  require('tsx/cjs/api').register();
  require(source);
} else {
  require('./indexThreadWorker.js');
}
