/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS bootstrap by necessity */
// The one loader of the worker threads' modules (the TVM threads, the index thread, the local
// chain's thread, PGlite's thread, the v3 answer threads: each entry file calls it). A worker
// thread loads plain JavaScript, while this code runs from the TypeScript sources under jest and
// tsx, from .build/ in a checkout (bin/devBuild.js) and from dist/ once built: with `<name>.ts`
// beside the entry, tsx compiles it on load; otherwise the compiled `<name>.js` is used.
const fs = require('node:fs');
const path = require('node:path');

/** The module `name` (no extension) of folder `dir`, from its source or its compiled copy. */
module.exports = function loadThreadModule(dir, name) {
  const source = path.join(dir, `${name}.ts`);
  if (fs.existsSync(source)) {
    require('tsx/cjs/api').register();
    return require(source);
  }
  return require(path.join(dir, `${name}.js`));
};
