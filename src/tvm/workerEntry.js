/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS bootstrap by necessity */
// Entry of a TVM worker thread: piscina loads plain JavaScript (src/threadModule.js finds worker.ts or its compiled copy).
module.exports = require('../threadModule')(__dirname, 'worker').default;
