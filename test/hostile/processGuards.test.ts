import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * Errors nothing caught: an unhandled rejection is logged and the process keeps serving; an
 * uncaught exception is logged as fatal and the process stops gracefully with status 1.
 */

const ROOT = path.resolve(__dirname, '..', '..');

test('an unhandled rejection is logged and the server keeps serving; an uncaught exception exits 1 after logging', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/hostile/fixtures/guardedServer.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /LISTENING (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', () => reject(new Error(`child exited early: ${output}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  expect((await fetch(`${base}/reject`)).status).toBe(200);
  const alive = await fetch(`${base}/`);
  expect(alive.status).toBe(200);
  expect(await alive.text()).toBe('alive');
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(output).toMatch(
    /"level":50.*unhandled promise rejection.*stray rejection|"level":50.*stray rejection.*unhandled promise rejection/,
  );

  await fetch(`${base}/throw`).catch(() => undefined);
  expect(await exited).toBe(1);
  expect(output).toMatch(/"level":60.*thrown in a timer/);
}, 60_000);
