/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS bootstrap by necessity */
// Entry of the embedded PostgreSQL (PGlite) worker thread: a worker loads plain JavaScript (src/threadModule.js finds pgliteWorker.ts or its compiled copy).
require('../threadModule')(__dirname, 'pgliteWorker');
