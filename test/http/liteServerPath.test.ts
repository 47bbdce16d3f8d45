import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { startServer, type RunningServer } from '../../src/server';
import { ScriptedLiteServer } from '../helpers/scriptedLiteServer';

const logger = pino({ level: 'silent' });
const ROOT = path.resolve(__dirname, '..', '..');

function writeGlobalConfig(server: ScriptedLiteServer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'thb-gc-')), 'global.config.json');
  fs.writeFileSync(file, JSON.stringify(server.globalConfig()));
  return file;
}

describe('the API over a lite server given by --liteservers', () => {
  let lite: ScriptedLiteServer;
  let running: RunningServer;

  beforeAll(async () => {
    lite = new ScriptedLiteServer('g');
    await lite.start();
    const { config } = loadConfig(['--trust-liteservers', '--liteservers', writeGlobalConfig(lite), '--port', '0', '--metrics-port', '0', '--health-interval', '200', '--keyless-rps', '0'], {});
    running = await startServer(config, logger);
  });

  afterAll(async () => {
    await running.stop();
    await lite.stop();
  });

  test('getMasterchainInfo goes through the pool to the lite server, in the reference shape', async () => {
    for (const init of [undefined, { method: 'POST', body: '{}' }]) {
      const res = await fetch(`${running.url}/api/v2/getMasterchainInfo`, init);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { result: unknown; '@extra': string };
      expect(body.result).toEqual({
        '@type': 'blocks.masterchainInfo',
        last: {
          '@type': 'ton.blockIdExt',
          workchain: -1,
          shard: '-9223372036854775808',
          seqno: 100,
          root_hash: Buffer.alloc(32, 100).toString('base64'),
          file_hash: Buffer.alloc(32, 100).toString('base64'),
        },
        state_root_hash: Buffer.alloc(32, 7).toString('base64'),
        init: {
          '@type': 'ton.blockIdExt',
          workchain: -1,
          shard: '0',
          seqno: 0,
          root_hash: Buffer.alloc(32, 1).toString('base64'),
          file_hash: Buffer.alloc(32, 2).toString('base64'),
        },
      });
      // The lite server that answered is named in @extra.
      expect(body['@extra']).toMatch(/^\d+:0:\d+\.\d{3}$/);
    }
  });

  test('getConsensusBlock reports the probed seqno', async () => {
    const body = (await (await fetch(`${running.url}/api/v2/getConsensusBlock`)).json()) as { result: Record<string, unknown> };
    expect(body.result).toMatchObject({ '@type': 'ext.blocks.consensusBlock', consensus_block: 100 });
    expect(Math.abs((body.result['timestamp'] as number) - Date.now() / 1000)).toBeLessThan(5);
  });

  test('the health route shows the lite server state', async () => {
    const body = (await (await fetch(`${running.url}/api/v2/healthcheck`)).json()) as { result: { liteservers: Array<Record<string, unknown>> } };
    expect(body.result.liteservers).toEqual([expect.objectContaining({ index: 0, state: 'up', connected: true, seqno: 100, lag: 0 })]);
  });

  test('a mute lite server gives 504 LITE_SERVER_NETWORK timeout within the request deadline', async () => {
    lite.silent = true;
    try {
      // A second instance with a short deadline and no health probe during the test, so the query
      // itself meets the mute server.
      const { config } = loadConfig(
        ['--trust-liteservers', '--liteservers', writeGlobalConfig(lite), '--port', '0', '--metrics-port', '0', '--request-timeout', '800', '--health-interval', '60000', '--keyless-rps', '0'],
        {},
      );
      lite.silent = false;
      const second = await startServer(config, logger);
      lite.silent = true;
      const started = Date.now();
      // getMasterchainInfo is answered from the tracked head; a lookup must ask the server.
      const res = await fetch(`${second.url}/api/v2/lookupBlock?workchain=-1&shard=-9223372036854775808&seqno=50`);
      // Within the 800 ms deadline, not the 5 s of one query attempt (room for a loaded machine).
      expect(Date.now() - started).toBeLessThan(4000);
      expect(res.status).toBe(504);
      expect(await res.json()).toEqual({ ok: false, code: 504, error: 'LITE_SERVER_NETWORK timeout' });
      // The failed query took the server out of rotation: the next request is a clear 503.
      const next = await fetch(`${second.url}/api/v2/lookupBlock?workchain=-1&shard=-9223372036854775808&seqno=50`);
      expect(next.status).toBe(503);
      expect(((await next.json()) as { error: string }).error).toMatch(/^no healthy lite server: #0 down/);
      await second.stop();
    } finally {
      lite.silent = false;
    }
  });
});

describe('process lifecycle', () => {
  test('SIGTERM lets a request in flight finish, then the process exits 0', async () => {
    const lite = new ScriptedLiteServer('s');
    await lite.start();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--trust-liteservers', '--liteservers', writeGlobalConfig(lite), '--port', '0', '--metrics-port', '0', '--keyless-rps', '0'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listening line in: ${output}`)), 20000);
        const poll = setInterval(() => {
          const match = /"url":"(http:[^"]+)\/api\/v2\/"/.exec(output);
          if (match) {
            clearInterval(poll);
            clearTimeout(timer);
            resolve(match[1]!);
          }
        }, 50);
      });
      lite.lookupDelayMs = 700;
      const inFlight = fetch(`${url}/api/v2/lookupBlock?workchain=-1&shard=-9223372036854775808&seqno=50`);
      await new Promise((resolve) => setTimeout(resolve, 150));
      child.kill('SIGTERM');
      const res = await inFlight;
      expect(res.status).toBe(200);
      expect(await exited).toBe(0);
      await expect(fetch(`${url}/api/v2/getMasterchainInfo`)).rejects.toThrow();
    } finally {
      child.kill('SIGKILL');
      await lite.stop();
    }
  }, 40000);
});
