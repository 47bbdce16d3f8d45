import fs from 'node:fs';
import path from 'node:path';

/**
 * The Dockerfile's essentials, checked without a Docker engine (none runs in CI; hadolint is not
 * packaged in Debian; `npx dockerfilelint Dockerfile` was run by hand and reports no issue). The
 * start command itself runs as a process in test/e2e/container.test.ts.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const text = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}

/** Instructions with their continuation lines joined, comments dropped. */
function instructions(source: string): Instruction[] {
  const joined = source.replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword!.toUpperCase(), args: rest.join(' ') };
    });
}

const all = instructions(text);
const stages = all.reduce<Instruction[][]>((list, instruction) => {
  if (instruction.keyword === 'FROM') list.push([]);
  list[list.length - 1]!.push(instruction);
  return list;
}, []);
const runtime = stages[stages.length - 1]!;
const of = (keyword: string, list = runtime) => list.filter((instruction) => instruction.keyword === keyword);

test('every stage is based on Node 22 LTS pinned by exact version', () => {
  const bases = of('FROM', all).map((from) => from.args.split(/\s+/)[0]!);
  expect(bases.length).toBeGreaterThanOrEqual(2);
  for (const base of bases) expect(base).toMatch(/^node:22\.\d+\.\d+(-[a-z]+)*(@sha256:[0-9a-f]{64})?$/);
  expect(new Set(bases).size).toBe(1);
});

test('runs as the non-root node user with a writable /data volume as the config cache', () => {
  const users = of('USER');
  expect(users.map((user) => user.args)).toEqual(['node']);
  expect(runtime.indexOf(users[0]!)).toBeLessThan(runtime.indexOf(of('ENTRYPOINT')[0]!));
  expect(of('VOLUME').map((volume) => volume.args)).toEqual(['["/data"]']);
  const env = of('ENV')
    .map((instruction) => instruction.args)
    .join(' ');
  expect(env).toMatch(/TON_BRIDGE_CONFIG_CACHE_DIR=\/data(\s|$)/);
  expect(env).toMatch(/TON_BRIDGE_NETWORK=mainnet(\s|$)/);
  expect(env).toMatch(/TON_BRIDGE_HOST=0\.0\.0\.0(\s|$)/);
  // /data is made before USER and handed to it, so the cache is writable (it used to be /app/.cache, root's).
  const chown = of('RUN').find((run) => /mkdir -p \/data/.test(run.args) && /chown node:node \/data/.test(run.args));
  expect(chown).toBeDefined();
  expect(runtime.indexOf(chown!)).toBeLessThan(runtime.indexOf(users[0]!));
});

test('the HEALTHCHECK asks the truthful healthcheck and needs a 200', () => {
  const [healthcheck] = of('HEALTHCHECK');
  expect(healthcheck!.args).toContain('/api/v2/healthcheck');
  expect(healthcheck!.args).toContain('r.status === 200 ? 0 : 1');
  expect(of('EXPOSE').map((expose) => expose.args)).toEqual(['8081 8082']);
  expect(of('ENTRYPOINT').map((entry) => entry.args)).toEqual(['["node", "dist/main.js"]']);
});

test('every COPY source exists and the build output is where the entry point expects it', () => {
  for (const stage of stages) {
    for (const copy of of('COPY', stage)) {
      if (copy.args.startsWith('--from=')) continue;
      const parts = copy.args.split(/\s+/);
      for (const source of parts.slice(0, -1)) expect([source, fs.existsSync(path.join(ROOT, source))]).toEqual([source, true]);
    }
  }
  const build = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.build.json'), 'utf8')) as {
    compilerOptions: { outDir: string; rootDir: string };
  };
  expect(build.compilerOptions).toMatchObject({ outDir: 'dist', rootDir: 'src' });
  expect(fs.existsSync(path.join(ROOT, 'src', 'main.ts'))).toBe(true);
});

test('.dockerignore keeps the context small and secrets out', () => {
  const ignored = fs
    .readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  for (const entry of ['.git', 'node_modules', 'dist', '.cache', '.env', 'test']) expect(ignored).toContain(entry);
  // Nothing the build copies is ignored.
  for (const needed of ['package.json', 'package-lock.json', '.npmrc', 'tsconfig.json', 'tsconfig.build.json', 'src', 'config'])
    expect(ignored).not.toContain(needed);
});

test('the image and CI install exactly the lock file (npm ci), never npm install', () => {
  const installs = of('RUN', stages[0]).filter((run) => /\bnpm (ci|install|i)\b/.test(run.args));
  expect(installs.map((run) => run.args)).toEqual(['npm ci --no-audit --no-fund']);
  const ci = fs.readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8');
  const ciInstalls = ci.split('\n').filter((line) => /^\s*npm (ci|install|i)\b/.test(line));
  expect(ciInstalls.map((line) => line.trim())).toEqual(['npm ci --no-audit --no-fund']);
});

test("the image runs with npm start's malloc settings", () => {
  // package.json's start script: `NAME=value ... node bin/ton-http-bridge.js`.
  const start = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const assignments: string[] = [];
  for (const word of start.split(/\s+/)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) break;
    assignments.push(word);
  }
  expect(assignments.map((word) => word.split('=')[0])).toEqual(expect.arrayContaining(['MALLOC_TRIM_THRESHOLD_', 'MALLOC_MMAP_THRESHOLD_']));
  const env = of('ENV')
    .map((instruction) => instruction.args)
    .join(' ')
    .split(/\s+/);
  for (const assignment of assignments) expect(env).toContain(assignment);
});
