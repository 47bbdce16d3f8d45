/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS bootstrap by necessity */
// Entry of the local chain's worker thread (see localnetThread.ts): a worker loads plain JavaScript (src/threadModule.js finds worker.ts or its compiled copy).
require('../../threadModule')(__dirname, 'worker');
