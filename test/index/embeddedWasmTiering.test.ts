import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * The embedded store compiles PostgreSQL's wasm with Liftoff only (src/indexdb/pgliteWorker.ts):
 * V8's flag is process-wide and set just around that compile. Shown with V8's own trace of every
 * wasm function compiled (which module, which compiler): PGlite's module is never compiled by
 * TurboFan however hard it works, while a module compiled afterwards in the same process (as the
 * TVM emulator is in a thread that starts later) still tiers up to TurboFan.
 */

interface Compile {
  readonly module: string;
  readonly tier: string;
  readonly bodySize: number;
}

interface Result {
  readonly rows: number;
  readonly loopSum: number;
  readonly loopBodySize: number;
  readonly sharedBuffers: string;
  readonly maxConnections: string;
  readonly sharedMemoryBytes: number;
}

async function traced(): Promise<{ compiles: Compile[]; result: Result }> {
  const root = path.join(__dirname, '..', '..');
  const child = spawn(process.execPath, ['--trace-wasm-compilation-times', '--import', 'tsx', path.join(__dirname, 'fixtures', 'wasmTiering.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code).toBe(0);
  const compiles: Compile[] = [];
  let result: Result | undefined;
  for (const line of out.split('\n')) {
    // "Compiled function 0x7f..#20 using TurboFan, took 1 ms and ... bytes; bodysize 1757 codesize 3596 ..."
    const match = /^Compiled function (0x[0-9a-f]+)#\d+ using (\w+), .* bodysize (\d+)/.exec(line);
    if (match) compiles.push({ module: match[1]!, tier: match[2]!, bodySize: Number(match[3]) });
    else if (line.startsWith('{')) result = JSON.parse(line) as typeof result;
  }
  if (!result) throw new Error(`the fixture printed no result:\n${out.slice(-2000)}`);
  return { compiles, result };
}

describe('the embedded store compiles PostgreSQL with Liftoff only', () => {
  jest.setTimeout(120_000);

  it('never tiers PGlite up, while a wasm module compiled later in the process still does', async () => {
    const { compiles, result } = await traced();
    expect(result.rows).toBe(20_000);
    expect(result.loopSum).toBe(705_082_704); // 100 000 * 100 001 / 2, wrapped to an i32
    // Its shared memory (the buffer pool and what max_connections sizes) is zeroed at the start, so
    // resident wasm memory, never given back: 4 MB of buffers, 5 connections, 8 MB in all
    // (src/indexdb/pgliteWorker.ts; 16 MB with 8 MB of buffers and PostgreSQL's 100 connections).
    expect(result.sharedBuffers).toBe('4MB');
    expect(result.maxConnections).toBe('5');
    expect(result.sharedMemoryBytes).toBeLessThanOrEqual(8 * 1024 * 1024);

    const perModule = new Map<string, Compile[]>();
    for (const compile of compiles) perModule.set(compile.module, [...(perModule.get(compile.module) ?? []), compile]);
    // PostgreSQL is by far the largest module of the process: thousands of functions ran.
    const [pglite] = [...perModule.values()].sort((a, b) => b.length - a.length);
    expect(pglite!.length).toBeGreaterThan(1000);
    expect(pglite!.filter((c) => c.tier === 'TurboFan')).toEqual([]);

    const loop = compiles.filter((c) => c.bodySize === result.loopBodySize && !pglite!.includes(c));
    expect(loop.map((c) => c.tier)).toContain('Liftoff');
    expect(loop.map((c) => c.tier)).toContain('TurboFan');
  });
});
