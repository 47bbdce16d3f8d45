import fc from 'fast-check';
import pino from 'pino';
import { ApiError, LiteServerError, LiteServerTimeoutError, NoHealthyLiteServerError } from '../../src/errors';
import { LiteTransportError } from '../../src/liteclient/connection';
import { firstAcceptance, type SendTarget } from '../../src/liteclient/fanout';
import { LitePool, type PoolOptions } from '../../src/liteclient/pool';
import { ScriptedLiteServer } from '../helpers/scriptedLiteServer';

/** sendBoc to several lite servers at once: ok at the first acceptance, and never without one. */

const logger = pino({ level: 'silent' });
const FAST: PoolOptions = {
  healthIntervalMs: 300,
  healthTimeoutMs: 3000,
  maxLagBlocks: 3,
  engine: { queryTimeoutMs: 2000, connectTimeoutMs: 1000, keepaliveMs: 5000, reconnectMinMs: 50, reconnectMaxMs: 400 },
};
const BOC = Buffer.from('b5ee9c72010101010002000000', 'hex');

type Verdict = 'accept' | 'reject' | 'transport' | 'timeout' | 'never';

describe('firstAcceptance (the fan-out rule, over scripted targets)', () => {
  function targets(verdicts: readonly Verdict[], delays: readonly number[], sent: number[], accepted: number[] = []) {
    return (exclude: ReadonlySet<number>): SendTarget | undefined => {
      const index = verdicts.findIndex((_, i) => !exclude.has(i));
      if (index < 0) return undefined;
      return {
        index,
        send: () =>
          new Promise<void>((resolve, reject) => {
            sent.push(index);
            const verdict = verdicts[index]!;
            if (verdict === 'never') return;
            setTimeout(() => {
              if (verdict === 'accept') {
                accepted.push(index);
                resolve();
              } else if (verdict === 'reject') reject(new LiteServerError(0, `rejected by ${index}`));
              else reject(new LiteTransportError(`failed ${index}`, verdict === 'timeout'));
            }, delays[index] ?? 0);
          }),
      };
    };
  }

  test('property: ok if and only if a server that was sent the message accepted it', async () => {
    const verdict = fc.constantFrom<Verdict>('accept', 'reject', 'transport', 'timeout', 'never');
    await fc.assert(
      fc.asyncProperty(
        fc.array(verdict, { minLength: 0, maxLength: 6 }),
        fc.array(fc.integer({ min: 0, max: 15 }), { minLength: 6, maxLength: 6 }),
        fc.integer({ min: 1, max: 4 }),
        async (verdicts, delays, width) => {
          const sent: number[] = [];
          const accepted: number[] = [];
          // Acceptances that had happened when the error was given (a server may accept after the deadline).
          let acceptedBeforeError: number[] = [];
          const outcome = await firstAcceptance({
            width,
            deadline: Date.now() + 400,
            pick: targets(verdicts, delays, sent, accepted),
          }).then(
            (ok) => ({ ok }),
            (error: unknown) => {
              acceptedBeforeError = [...accepted];
              return { error };
            },
          );
          if ('ok' in outcome) {
            // Never ok without an acceptance, and the accepting server was really sent the message.
            expect(verdicts[outcome.ok.acceptedBy]).toBe('accept');
            expect(sent).toContain(outcome.ok.acceptedBy);
            expect(outcome.ok.sentTo).toContain(outcome.ok.acceptedBy);
          } else {
            // An error only when no server had accepted it.
            expect(acceptedBeforeError).toEqual([]);
            expect(outcome.error).toBeInstanceOf(ApiError);
            const rejected = sent.filter((index) => verdicts[index] === 'reject');
            if (rejected.length > 0 && !(outcome.error instanceof LiteServerTimeoutError)) {
              expect((outcome.error as Error).message).toMatch(/rejected by \d/);
            }
          }
          // Never more than `width` servers at once before the first verdicts come in.
          expect(new Set(sent).size).toBe(sent.length);
        },
      ),
      { numRuns: 150 },
    );
  });

  test('the first rejection in time is the error when every server rejects', async () => {
    const sent: number[] = [];
    const error = await firstAcceptance({
      width: 3,
      deadline: Date.now() + 2000,
      pick: targets(['reject', 'reject', 'reject'], [30, 5, 60], sent),
    }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(LiteServerError);
    expect((error as Error).message).toBe('LITE_SERVER_UNKNOWN: rejected by 1 (code 0)');
  });

  test('a dead server is replaced by the next one; ok comes from it', async () => {
    const sent: number[] = [];
    const outcome = await firstAcceptance({
      width: 2,
      deadline: Date.now() + 2000,
      pick: targets(['transport', 'reject', 'accept'], [0, 0, 0], sent),
    });
    expect(outcome.acceptedBy).toBe(2);
    expect(sent).toEqual([0, 1, 2]);
  });

  test('a server that holds the message past the deadline: 504, not ok', async () => {
    const error = await firstAcceptance({ width: 3, deadline: Date.now() + 100, pick: targets(['never', 'reject'], [0, 0], []) }).catch(
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(LiteServerTimeoutError);
  });
});

describe('pool.broadcastMessage over real ADNL lite servers', () => {
  // Starting servers and waiting for the pool to see them up takes long on a loaded machine.
  jest.setTimeout(90_000);
  const servers: ScriptedLiteServer[] = [];
  let pool: LitePool | undefined;

  async function start(...verdicts: Array<ScriptedLiteServer['sendVerdict'] | 'dead'>): Promise<ScriptedLiteServer[]> {
    const started = verdicts.map((_, i) => new ScriptedLiteServer(String.fromCharCode(97 + i + servers.length)));
    for (const server of started) await server.start();
    servers.push(...started);
    pool = new LitePool(
      started.map((server) => server.endpoint()),
      logger,
      FAST,
    );
    await pool.start();
    // Dead servers die after the first probe: the pool still thinks they are healthy and sends to them.
    for (const [i, verdict] of verdicts.entries()) {
      if (verdict === 'dead') await started[i]!.stop();
      else started[i]!.sendVerdict = verdict;
    }
    // Under load a probe can time out: start from a pool that sees every live server up.
    const live = verdicts.map((verdict, i) => (verdict === 'dead' ? -1 : i)).filter((i) => i >= 0);
    for (let waited = 0; !live.every((i) => pool!.status()[i]!.state === 'up') && waited < 30_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return started;
  }

  afterEach(async () => {
    pool?.close();
    for (const server of servers.splice(0)) await server.stop();
  });

  test('three servers, two dead or rejecting: ok from the third, which really got the message', async () => {
    const [, , good] = await start('dead', 'reject', 'accept');
    const outcome = await pool!.broadcastMessage(BOC, 3, Date.now() + 8000);
    expect(outcome.acceptedBy).toBe(2);
    // The dead server is left out once a probe has seen it die; the rejecting one was tried.
    expect(outcome.sentTo).toEqual(expect.arrayContaining([1, 2]));
    expect(good!.accepted).toEqual([BOC]);
  });

  test('fanout 3 sends to all three at once: a slow accepting server still wins', async () => {
    const [a, b, c] = await start('reject', 'reject', 'accept');
    c!.sendDelayMs = 300;
    const outcome = await pool!.broadcastMessage(BOC, 3, Date.now() + 8000);
    expect(outcome.acceptedBy).toBe(2);
    expect(a!.calls.filter((call) => call === 'sendMessage')).toHaveLength(1);
    expect(b!.calls.filter((call) => call === 'sendMessage')).toHaveLength(1);
  });

  test('every server rejects: the error is a rejection text (500), never ok', async () => {
    await start('reject', 'reject', 'status0');
    const error = await pool!.broadcastMessage(BOC, 3, Date.now() + 8000).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApiError);
    // Which answer comes first depends on scheduling (the order rule is tested over timers above).
    expect((error as Error).message).toMatch(
      /cannot apply external message to current state : rejected by [abc]|did not accept the message \(status 0\)/,
    );
    expect((error as ApiError).code).toBe(500);
  });

  test('fanout 1 goes to one server at a time; a dead one is replaced', async () => {
    const started = await start('dead', 'dead', 'accept');
    const outcome = await pool!.broadcastMessage(BOC, 1, Date.now() + 8000);
    expect(outcome.acceptedBy).toBe(2);
    expect(started[2]!.accepted).toHaveLength(1);
  });

  test('every server dead: no ok, a 503 or 504 within the deadline', async () => {
    await start('dead', 'dead');
    const started = Date.now();
    const error = await pool!.broadcastMessage(BOC, 3, Date.now() + 3000).catch((err: unknown) => err);
    // Ended by the 3 s deadline, not a hang (the bound leaves room for a loaded machine).
    expect(Date.now() - started).toBeLessThan(8000);
    expect(error instanceof NoHealthyLiteServerError || error instanceof LiteServerTimeoutError).toBe(true);
  });
});
