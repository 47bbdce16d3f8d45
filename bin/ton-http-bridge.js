#!/usr/bin/env node
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS: it runs before anything is compiled */
// The `ton-http-bridge` command and `npm start`. In a checkout (src/ present) it runs .build/,
// the compiled copy of src/ that bin/devBuild.js brings up to date first (a few ms when nothing
// changed), so an edit is never run stale; without src/ it runs `npm run build`'s dist/.
const fs = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');

// The local chain's genesis runs ~25 transactions in the emulator (wasm) at once, enough for V8 to
// compile its hot functions again with TurboFan on its background threads: ~1 s of CPU during the
// start, on a 2-core machine the other core's time the TVM threads need then. Ten times V8's
// default tiering budget (1 800 000) leaves genesis on the baseline code: measured, a start's CPU
// 3.5 s -> 2.9 s (median of 7, machine busy); transfers sealed after it and get-methods run on a
// fresh emulator were no slower (their hot functions still tier up, later). Set before any wasm
// is compiled; it is process-wide, so the TVM threads' emulators tier up later too.
v8.setFlagsFromString('--wasm-tiering-budget=18000000');

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
