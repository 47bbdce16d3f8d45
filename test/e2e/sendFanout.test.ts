import type { WalletContractV4 } from '@ton/ton';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { startLocalnetSource } from '../../src/localnetSource';
import type { Localnet } from '../../src/localnet';
import { startServer, type RunningServer } from '../../src/server';
import { transferBoc } from '../helpers/everyMethod';
import type { LocalStack } from '../helpers/localStack';
import { ScriptedLiteServer } from '../helpers/scriptedLiteServer';
import { HARNESS_DEADLINE_MS, withLiteClient } from '../helpers/sessionClient';

/**
 * sendBoc to several lite servers at once on the real local chain: the chain's lite server, one
 * that rejects every message and one that is dead. ok comes from the server that accepted, the
 * message really lands; when every server rejects, the answer is an error.
 */

const logger = pino({ level: 'silent' });

interface Answer {
  status: number;
  body: { ok: boolean; result?: unknown; error?: string; code?: number; '@extra'?: string };
}

async function post(running: RunningServer, method: string, body: unknown): Promise<Answer> {
  const res = await fetch(`${running.url}/api/v2/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

describe('sendBoc over the local chain, a rejecting server and a dead one', () => {
  let localnet: Localnet;
  let rejecting: ScriptedLiteServer;
  let dead: ScriptedLiteServer;
  let running: RunningServer;
  let stack: LocalStack;

  beforeAll(async () => {
    const { config } = loadConfig(
      [
        // The scripted servers beside the chain cannot prove a masterchain; this is about the fan-out.
        '--trust-liteservers',
        '--port',
        '0',
        '--metrics-port',
        '0',
        '--keyless-rps',
        '0',
        '--accounts',
        '1',
        '--health-interval',
        '200',
        '--send-fanout',
        '3',
        '--max-lag',
        '1000000',
      ],
      {},
    );
    const source = await startLocalnetSource(config, logger);
    localnet = source.localnet;
    rejecting = new ScriptedLiteServer('r');
    rejecting.sendVerdict = 'reject';
    // It answers only a few queries: reads go to archival servers (the chain); --max-lag keeps it in rotation.
    dead = new ScriptedLiteServer('d');
    await rejecting.start();
    await dead.start();
    running = await startServer(config, logger, {
      servers: [...source.servers, rejecting.endpoint(), dead.endpoint()],
      stop: () => source.stop(),
    });
    await dead.stop();
    stack = { url: running.url, api: `${running.url}/api/v2`, localnet, server: running, stop: () => running.stop() };
  }, 60_000);

  afterAll(async () => {
    await running?.stop();
    await rejecting?.stop();
  });

  const seqnoOf = async (): Promise<number> => {
    const wallet = localnet.wallets.wallets.find((w) => w.version === 'v4r2' && w.index === 0)!;
    return withLiteClient(running.pool.openSession({ archival: true }, Date.now() + HARNESS_DEADLINE_MS), (client) =>
      client.open(wallet.contract as WalletContractV4).getSeqno(),
    );
  };

  test('ok from the chain that accepted; the transfer lands', async () => {
    const before = await seqnoOf();
    const answer = await post(running, 'sendBoc', { boc: await transferBoc(stack) });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true, result: { '@type': 'ok' } });
    // The local chain's lite server (index 0) is among the servers the message went to.
    expect(answer.body['@extra']!.split(':')[1]!.split(',')).toContain('0');
    // It went to the rejecting server too, at the same time, and its rejection did not matter.
    expect(rejecting.calls).toContain('sendMessage');
    const deadline = Date.now() + 10_000;
    while ((await seqnoOf()) === before) {
      if (Date.now() > deadline) throw new Error('the accepted transfer never landed');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  test('a message every server rejects (already used seqno): an error, never ok', async () => {
    const boc = await transferBoc(stack, -1);
    const answer = await post(running, 'sendBoc', { boc });
    expect(answer.status).toBe(500);
    expect(answer.body.ok).toBe(false);
    expect(answer.body.error).toMatch(/cannot apply external message/);
    const noError = await post(running, 'sendBocReturnHashNoError', { boc });
    expect(noError.status).toBe(400);
  });
});
