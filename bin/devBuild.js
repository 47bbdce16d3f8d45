'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS: it runs before anything is compiled */
/**
 * The JavaScript a checkout runs: src/ transformed file by file by esbuild into .build/ (same
 * layout, so paths relative to __dirname hold), made at `npm install` (the `prepare` script) and
 * brought up to date by every start. Loading compiled files instead of compiling TypeScript at
 * load time (tsx) saves about a second of a start, in the main thread and in each TVM thread.
 *
 * Fresh means: .build/.manifest.json records the size and mtime of every file under src/ it was
 * built from. A start stats src/ (a few ms for ~280 files) and rebuilds only what differs (an
 * edited file, a new one, one restored from git with an older mtime), and deletes the outputs of
 * sources that are gone, so an edit is never run stale and a removed module cannot be loaded.
 * No type checking here (as under tsx): that is `npm run typecheck`.
 */
const fs = require('node:fs');
const path = require('node:path');

/** Bump when the esbuild options below change: every file is then rebuilt. */
const FORMAT = 2;
const MANIFEST = '.manifest.json';

function listSources(srcDir) {
  const files = new Map();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && !entry.name.endsWith('.d.ts')) {
        const stat = fs.statSync(full);
        files.set(path.relative(srcDir, full), `${stat.size}:${stat.mtimeMs}`);
      }
    }
  };
  walk(srcDir);
  return files;
}

function readManifest(outDir) {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(outDir, MANIFEST), 'utf8'));
    return manifest && typeof manifest.files === 'object' ? manifest : null;
  } catch {
    return null;
  }
}

/** Outputs of one source: a .ts gives .js and its .js.map; anything else is copied as is. */
function outputsOf(relative) {
  if (!relative.endsWith('.ts')) return [relative];
  const js = relative.replace(/\.ts$/, '.js');
  return [js, `${js}.map`];
}

/** Whole-file writes through a rename, so a process loading .build/ meanwhile sees old or new, never half. */
function writeAtomically(file, contents) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, contents);
  fs.renameSync(temporary, file);
}

/**
 * Makes `outDir` match `srcDir`; returns the number of files rebuilt or copied (0: it was fresh).
 * Throws with esbuild's message when a source does not parse.
 */
function ensureFreshBuild(srcDir, outDir) {
  const sources = listSources(srcDir);
  const esbuildVersion = require('esbuild/package.json').version;
  const previous = readManifest(outDir);
  const sameFormat = previous !== null && previous.format === FORMAT && previous.esbuild === esbuildVersion;
  const stale = [...sources].filter(([file, stamp]) => !sameFormat || previous.files[file] !== stamp).map(([file]) => file);
  const removed = sameFormat ? Object.keys(previous.files).filter((file) => !sources.has(file)) : [];
  if (stale.length === 0 && removed.length === 0) return 0;

  for (const file of removed) for (const output of outputsOf(file)) fs.rmSync(path.join(outDir, output), { force: true });
  const typescript = stale.filter((file) => file.endsWith('.ts'));
  if (typescript.length > 0) {
    const result = require('esbuild').buildSync({
      entryPoints: typescript.map((file) => path.join(srcDir, file)),
      outdir: outDir,
      outbase: srcDir,
      bundle: false,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      // import() of our own modules (main.ts loads the server late) becomes require(), as tsc emits
      // it: node's ESM loader would load them through its slower CommonJS interop.
      supported: { 'dynamic-import': false },
      // Stack traces name the TypeScript lines (node --enable-source-maps, see bin/ton-http-bridge.js).
      sourcemap: 'linked',
      sourcesContent: false,
      write: false,
      logLevel: 'silent',
    });
    for (const output of result.outputFiles) writeAtomically(output.path, output.contents);
  }
  for (const file of stale.filter((name) => !name.endsWith('.ts'))) {
    writeAtomically(path.join(outDir, file), fs.readFileSync(path.join(srcDir, file)));
  }
  const manifest = { format: FORMAT, esbuild: esbuildVersion, files: Object.fromEntries(sources) };
  writeAtomically(path.join(outDir, MANIFEST), JSON.stringify(manifest));
  return stale.length;
}

module.exports = { ensureFreshBuild };

// `node bin/devBuild.js` (the `prepare` script): build now, so the first start has nothing to do.
if (require.main === module) {
  const root = path.join(__dirname, '..');
  const srcDir = path.join(root, 'src');
  // A Docker build installs before it copies src/: nothing to build yet.
  if (fs.existsSync(srcDir)) {
    const started = Date.now();
    const count = ensureFreshBuild(srcDir, path.join(root, '.build'));
    process.stdout.write(`.build/: ${count} file(s) compiled in ${Date.now() - started} ms\n`);
  }
}
