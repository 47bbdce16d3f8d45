import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The import rules of ARCHITECTURE.md, as `npm run lint` runs them (.dependency-cruiser.cjs):
 * dependency-cruiser is run on small trees laid out like src/, one that keeps the rules and one
 * with a bad import of each kind, and each bad import must be reported by its rule.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = path.join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
}

function writeTree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-rules-'));
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'commonjs', strict: true } }));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/** dependency-cruiser's start is slow on a busy machine: the tests allow it two minutes. */
function cruiseIn(dir: string): Violation[] {
  const run = spawnSync(process.execPath, [DEPCRUISE, 'src', '--config', CONFIG, '--output-type', 'json'], { cwd: dir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (!run.stdout) throw new Error(`depcruise printed nothing: ${run.stderr}`);
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

function cruise(files: Record<string, string>): Violation[] {
  const dir = writeTree(files);
  try {
    return cruiseIn(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A tree that keeps every rule: each folder imports lower layers through their index. */
const GOOD: Record<string, string> = {
  'src/constants/index.ts': 'export const MASTERCHAIN = -1;\n',
  'src/errors/index.ts': "import { MASTERCHAIN } from '../constants';\nexport const code = MASTERCHAIN;\n",
  'src/tlb/index.ts': "export { loadThing } from './loader';\n",
  'src/tlb/loader.ts': 'export function loadThing(): number {\n  return 1;\n}\n',
  'src/chain/index.ts': "export { read } from './read';\n",
  'src/chain/read.ts': "import { loadThing } from '../tlb';\nimport { code } from '../errors';\nexport const read = (): number => loadThing() + code;\n",
  'src/localnet/index.ts': "import { loadThing } from '../tlb';\nexport const chain = loadThing;\n",
  'src/routes/index.ts': "import { read } from '../chain';\nimport { chain } from '../localnet';\nexport const route = (): number => read() + chain();\n",
  'src/main.ts': "import { route } from './routes';\nroute();\n",
};

describe('the import rules (.dependency-cruiser.cjs)', () => {
  it("holds for the project's own src/ (what `npm run lint` checks, here in `npm test` too)", () => {
    const violations = cruiseIn(ROOT);
    expect(violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  }, 120_000);

  it('lets a thread entry file in any folder load src/threadModule.js, and nothing else of the root', () => {
    const violations = cruise({
      ...GOOD,
      'src/threadModule.js': "'use strict';\nmodule.exports = { load: (name) => name };\n",
      'src/localnet/workerEntry.js': "'use strict';\nrequire('../threadModule.js').load('worker');\n",
      'src/chain/workerEntry.js': "'use strict';\nrequire('../threadModule.js').load('worker');\n",
      'src/chain/root.ts': "import { route } from '../main';\nexport const r = route;\n",
    });
    expect(violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort()).toEqual(
      expect.arrayContaining(['nobody-imports-the-root: src/chain/root.ts -> src/main.ts']),
    );
    expect(violations.filter((v) => v.to === 'src/threadModule.js')).toEqual([]);
  }, 120_000);

  it('accepts a tree that imports downward through the indexes', () => {
    expect(cruise(GOOD)).toEqual([]);
  }, 120_000);

  it('reports a cycle (type-only imports too), an upward import, a deep import and a breach of the local chain fence', () => {
    const violations = cruise({
      ...GOOD,
      // A cycle of type-only imports inside one folder.
      'src/chain/a.ts': "import type { B } from './b';\nexport interface A {\n  b?: B;\n}\n",
      'src/chain/b.ts': "import type { A } from './a';\nexport interface B {\n  a?: A;\n}\n",
      // errors is below chain: importing it is against the order.
      'src/errors/upward.ts': "import { read } from '../chain';\nexport const up = read;\n",
      // Past tlb's index.
      'src/chain/deep.ts': "import { loadThing } from '../tlb/loader';\nexport const deep = loadThing;\n",
      // The embedded chain imports only wire formats, cells/TL-B, the TVM emulator and errors...
      'src/localnet/reads.ts': "import { read } from '../chain';\nexport const reads = read;\n",
      // ...and only the composition root and the routes import it.
      'src/chain/local.ts': "import { chain } from '../localnet';\nexport const local = chain;\n",
      // A folder without a place in the order.
      'src/nowhere/index.ts': 'export const lost = 1;\n',
      'src/routes/lost.ts': "import { lost } from '../nowhere';\nexport const found = lost;\n",
      // Folders never import the composition root.
      'src/chain/root.ts': "import '../main';\n",
    });
    const found = (rule: string, from: string) => violations.some((v) => v.rule.name === rule && v.from === from);
    expect(found('no-circular', 'src/chain/a.ts')).toBe(true);
    expect(found('layer-errors', 'src/errors/upward.ts')).toBe(true);
    expect(found('through-the-index', 'src/chain/deep.ts')).toBe(true);
    expect(found('localnet-isolated', 'src/localnet/reads.ts')).toBe(true);
    expect(found('localnet-imported-by-root-and-its-routes', 'src/chain/local.ts')).toBe(true);
    expect(found('folder-is-known', 'src/routes/lost.ts')).toBe(true);
    expect(found('nobody-imports-the-root', 'src/chain/root.ts')).toBe(true);
    // Nothing is reported of the files that keep the rules.
    expect(violations.filter((v) => Object.keys(GOOD).includes(v.from) && v.rule.name !== 'no-circular')).toEqual([]);
  }, 120_000);
});
