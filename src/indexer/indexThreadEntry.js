/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS bootstrap by necessity */
// Entry of the index thread (see indexThread.ts): a worker loads plain JavaScript (src/threadModule.js finds indexThreadWorker.ts or its compiled copy).
require('../threadModule')(__dirname, 'indexThreadWorker');
