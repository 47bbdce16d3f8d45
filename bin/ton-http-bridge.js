#!/usr/bin/env node
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS: it runs before anything is compiled */
// The `ton-http-bridge` command and `npm start`. In a checkout (src/ present) it runs .build/,
// the compiled copy of src/ that bin/devBuild.js brings up to date first (a few ms when nothing
// changed), so an edit is never run stale; without src/ it runs `npm run build`'s dist/.
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const srcDir = path.join(root, 'src');

function runCheckout() {
  const { ensureFreshBuild } = require('./devBuild');
  const outDir = path.join(root, '.build');
  try {
    ensureFreshBuild(srcDir, outDir);
  } catch (err) {
    process.stderr.write(`ton-http-bridge: cannot compile src/ into .build/:\n${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
  // Stack traces of the compiled files name the TypeScript sources (maps are read only when a trace is printed).
  process.setSourceMapsEnabled(true);
  require(path.join(outDir, 'main.js'));
}

if (fs.existsSync(path.join(srcDir, 'main.ts'))) runCheckout();
else require(path.join(root, 'dist', 'main.js'));
