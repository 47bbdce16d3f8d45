import { ApiError, LiteServerTimeoutError, NoHealthyLiteServerError } from '../errors';
import { liteClientFunction } from '../tl';
import { LiteTransportError } from './connection';
import type { BroadcastOutcome } from './gateway';
import type { SessionPool } from './sessionPool';

const SEND_MESSAGE = liteClientFunction('liteServer.sendMessage');

/**
 * Sending an external message to several lite servers at once, as toncenter does, so that one
 * slow, lagging or dead server does not lose a user's transfer. The rule that matters: the answer
 * is ok only when a server accepted the message (`liteServer.sendMsgStatus` status 1); an error
 * only when every server tried rejected it (the first rejection's text) or the deadline passed.
 */

/** One server the message can be sent to; `send` resolves only on acceptance. */
export interface SendTarget {
  readonly index: number;
  /** Resolves when the server accepted; rejects with LiteTransportError (no verdict) or a rejection. */
  send(timeoutMs: number): Promise<void>;
}

export interface FanoutPlan {
  /** Servers at once. */
  readonly width: number;
  /** Absolute time (ms since the epoch) after which no answer counts any more. */
  readonly deadline: number;
  /** The next healthy server not yet tried, or undefined when none is left. */
  pick(exclude: ReadonlySet<number>): SendTarget | undefined;
  /** A server failed without a verdict (closed, mute): the pool takes it out. */
  onTransportFailure?(target: SendTarget, error: LiteTransportError): void;
}

/**
 * Sends to up to `width` servers at once; a server that fails without a verdict is replaced by
 * the next untried one. Resolves at the first acceptance; rejects with the first rejection once
 * nothing is in flight and nothing is left to try, or with a timeout at the deadline.
 */
export function firstAcceptance(plan: FanoutPlan): Promise<BroadcastOutcome> {
  return new Promise<BroadcastOutcome>((resolve, reject) => {
    const sentTo: number[] = [];
    const tried = new Set<number>();
    let inFlight = 0;
    let settled = false;
    let firstRejection: Error | undefined;
    let lastTransportFailure: LiteTransportError | undefined;

    const settle = (outcome: { ok: BroadcastOutcome } | { error: Error }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if ('ok' in outcome) resolve(outcome.ok);
      else reject(outcome.error);
    };
    // The message may still be accepted by a server that has not answered: its fate is unknown, a 504.
    const timer = setTimeout(() => settle({ error: new LiteServerTimeoutError() }), Math.max(0, plan.deadline - Date.now()));

    const launch = () => {
      while (!settled && inFlight < plan.width && Date.now() < plan.deadline) {
        const target = plan.pick(tried);
        if (!target) break;
        tried.add(target.index);
        sentTo.push(target.index);
        inFlight++;
        target.send(Math.max(1, plan.deadline - Date.now())).then(
          () => settle({ ok: { acceptedBy: target.index, sentTo: [...sentTo] } }),
          (err: unknown) => {
            inFlight--;
            if (err instanceof LiteTransportError) {
              lastTransportFailure = err;
              plan.onTransportFailure?.(target, err);
            } else {
              firstRejection ??= err instanceof Error ? err : new Error(String(err));
            }
            launch();
          },
        );
      }
      if (inFlight > 0 || settled) return;
      if (firstRejection) settle({ error: firstRejection });
      else if (lastTransportFailure?.timedOut || Date.now() >= plan.deadline) settle({ error: new LiteServerTimeoutError() });
      else if (lastTransportFailure) settle({ error: new NoHealthyLiteServerError(`lite server failed: ${lastTransportFailure.message}`) });
      else settle({ error: new NoHealthyLiteServerError() });
    };
    launch();
  });
}

/** Status 1 is the only answer that means the lite server took the message. */
function notAccepted(status: number): ApiError {
  return new ApiError(500, `the lite server did not accept the message (status ${status})`);
}

/** The pool's healthy servers as send targets, waiting (up to the deadline) for one to exist. */
export async function broadcastToServers(pool: SessionPool, boc: Buffer, width: number, deadline: number): Promise<BroadcastOutcome> {
  await waitForHealthy(pool, deadline);
  const members = new Map<number, NonNullable<ReturnType<SessionPool['pick']>>>();
  return firstAcceptance({
    width,
    deadline,
    pick(exclude) {
      const member = pool.pick({}, exclude);
      if (!member) return undefined;
      members.set(member.index, member);
      return {
        index: member.index,
        async send(timeoutMs) {
          const timeout = Math.min(timeoutMs, pool.queryTimeoutMs);
          const answer = await member.engine.query(SEND_MESSAGE, { kind: 'liteServer.sendMessage', body: boc }, { timeout });
          if (answer.status !== 1) throw notAccepted(answer.status);
        },
      };
    },
    onTransportFailure(target, error) {
      const member = members.get(target.index);
      if (member) pool.reportFailure(member, error);
    },
  });
}

async function waitForHealthy(pool: SessionPool, deadline: number): Promise<void> {
  while (!pool.hasHealthy()) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new NoHealthyLiteServerError(pool.noHealthyText());
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.min(remaining, 250));
      function done() {
        clearTimeout(timer);
        pool.off('health', done);
        resolve();
      }
      pool.once('health', done);
    });
  }
}
