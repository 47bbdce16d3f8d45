import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import request from 'supertest';
import { DETECT_PATH, buildAuthApp, freePort, tempDir, writeFile } from './helpers';
import { ScriptedLiteServer } from '../helpers/scriptedLiteServer';

const OLD_KEY = 'old-key-0000000000000000001';
const NEW_KEY = 'new-key-0000000000000000002';

function keysYaml(...entries: [name: string, key: string][]): string {
  return `keys:\n${entries.map(([name, key]) => `  - name: ${name}\n    key: ${key}\n    rps: 100\n    networks: [testnet]\n`).join('')}`;
}

describe('keys reload', () => {
  it('reload swaps the keys in a running app; a broken file keeps the previous keys', async () => {
    const dir = tempDir();
    const file = writeFile(dir, 'keys.yaml', keysYaml(['old', OLD_KEY]));
    const { app, access, logLines } = await buildAuthApp(['--keys-file', file, '--network', 'testnet']);
    try {
      expect((await request(app).get(DETECT_PATH).set('X-API-Key', OLD_KEY)).status).toBe(200);
      expect((await request(app).get(DETECT_PATH).set('X-API-Key', NEW_KEY)).status).toBe(401);

      writeFile(dir, 'keys.yaml', keysYaml(['new', NEW_KEY]));
      expect(await access.reloadKeys()).toEqual({ ok: true, keys: 1 });
      expect((await request(app).get(DETECT_PATH).set('X-API-Key', NEW_KEY)).status).toBe(200);
      expect((await request(app).get(DETECT_PATH).set('X-API-Key', OLD_KEY)).status).toBe(401);

      writeFile(dir, 'keys.yaml', 'keys: [');
      const outcome = await access.reloadKeys();
      expect(outcome.ok).toBe(false);
      expect((await request(app).get(DETECT_PATH).set('X-API-Key', NEW_KEY)).status).toBe(200);
      expect(logLines.join('\n')).not.toContain(NEW_KEY);
    } finally {
      await access.close();
    }
  });
});

describe('SIGHUP to a running server', () => {
  jest.setTimeout(120_000);
  const repoRoot = path.resolve(__dirname, '..', '..');
  let child: ChildProcess | undefined;
  let lite: ScriptedLiteServer | undefined;

  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    await lite?.stop();
  });

  it('re-reads the keys file without a restart', async () => {
    const dir = tempDir();
    const file = writeFile(dir, 'keys.yaml', keysYaml(['old', OLD_KEY]));
    const port = await freePort();
    // A scripted lite server: the server only starts once one is usable (--start-timeout).
    lite = new ScriptedLiteServer('k');
    await lite.start();
    const liteservers = writeFile(dir, 'global.json', JSON.stringify(lite.globalConfig()));
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('TON_BRIDGE_')));
    child = spawn(
      process.execPath,
      // tsx as a loader, not its CLI: the CLI runs the server in a grandchild that signals would miss.
      [
        '--import',
        'tsx',
        'src/main.ts',
        '--port',
        String(port),
        '--network',
        'testnet',
        '--trust-liteservers',
        '--liteservers',
        liteservers,
        '--keys-file',
        file,
        '--keyless-rps',
        '0',
        '--log-level',
        'info',
        '--metrics-port',
        '0',
      ],
      { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const base = `http://127.0.0.1:${port}`;

    const waitFor = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs = 90_000): Promise<void> => {
      const deadline = Date.now() + timeoutMs;
      while (!(await check())) {
        if (child!.exitCode !== null) throw new Error(`server exited while waiting for ${what}:\n${output}`);
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const statusWith = async (key: string): Promise<number> =>
      (await fetch(`${base}${DETECT_PATH}`, { headers: { 'X-API-Key': key } })).status;

    await waitFor('the server to listen', async () => {
      try {
        return (await fetch(`${base}/api/v2/healthcheck`)).status === 200;
      } catch {
        return false;
      }
    });
    expect(await statusWith(OLD_KEY)).toBe(200);
    expect(await statusWith(NEW_KEY)).toBe(401);

    writeFile(dir, 'keys.yaml', keysYaml(['old', OLD_KEY], ['new', NEW_KEY]));
    child.kill('SIGHUP');
    await waitFor('the reload log line', () => output.includes('"msg":"API keys reloaded"'));
    expect(await statusWith(NEW_KEY)).toBe(200);
    expect(await statusWith(OLD_KEY)).toBe(200);
    expect(child.exitCode).toBeNull();
    expect(output).not.toContain(NEW_KEY);
    expect(output).not.toContain(OLD_KEY);
  });
});
