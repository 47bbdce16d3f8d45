#!/usr/bin/env node
// Runs the compiled server when `npm run build` has produced dist/, the TypeScript sources otherwise.
const fs = require('node:fs');
const path = require('node:path');

const compiled = path.join(__dirname, '..', 'dist', 'main.js');
if (fs.existsSync(compiled)) {
  require(compiled);
} else {
  require('tsx/cjs');
  require(path.join(__dirname, '..', 'src', 'main.ts'));
}
