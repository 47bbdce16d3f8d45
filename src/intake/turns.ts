import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/**
 * Keeps a busy server accepting connections. Since libuv 1.45 (Node 20) a listening socket
 * accepts one connection per poll of the event loop, and Node runs the request handler of every
 * request that arrived in a poll before it polls again. When a thousand keep-alive clients keep
 * the server busy, one poll brings hundreds of requests: the turn lasts hundreds of milliseconds
 * and accepts one connection, so clients still in the kernel's accept queue wait tens of seconds
 * for their first answer (and time out).
 *
 * So a turn starts request handlers for at most `budgetMs` of the event loop's time; requests
 * arriving after that wait in a FIFO queue, and each following turn first gives the poll its
 * chance (a new connection, the requests of the clients just answered) and then starts queued
 * handlers for another `budgetMs`. Every request is handled, in arrival order; the queue holds at
 * most one request per connection (HTTP/1.1 clients wait for the answer), and a server that is
 * not that busy never queues anything.
 */

/** Event-loop time a turn spends starting request handlers before it polls again. */
export const TURN_BUDGET_MS = 2;

/** Handled slots at the queue's front that are dropped at the end of a turn. */
const COMPACT_AFTER = 1024;

export function boundedTurns(listener: RequestListener, budgetMs = TURN_BUDGET_MS): RequestListener {
  const waiting: [IncomingMessage, ServerResponse][] = [];
  let head = 0;
  /** When the current turn began handling requests; undefined between turns. */
  let turnStartedAt: number | undefined;
  let turnEndScheduled = false;

  /** At the turn's end (setImmediate: after the poll): a new turn, which first starts queued handlers. */
  const endTurn = (): void => {
    turnEndScheduled = false;
    turnStartedAt = undefined;
    if (head === waiting.length) return;
    const started = performance.now();
    try {
      do {
        const [req, res] = waiting[head]!;
        waiting[head++] = undefined as unknown as [IncomingMessage, ServerResponse];
        listener(req, res);
      } while (head < waiting.length && performance.now() - started < budgetMs);
    } finally {
      if (head === waiting.length || head > COMPACT_AFTER) {
        // Under sustained load the queue may never empty: drop the handled slots now and then.
        waiting.splice(0, head);
        head = 0;
      }
      if (head < waiting.length) scheduleTurnEnd();
    }
  };

  const scheduleTurnEnd = (): void => {
    if (turnEndScheduled) return;
    turnEndScheduled = true;
    setImmediate(endTurn);
  };

  return (req, res) => {
    if (head === waiting.length) {
      const now = performance.now();
      turnStartedAt ??= now;
      if (now - turnStartedAt < budgetMs) {
        scheduleTurnEnd();
        listener(req, res);
        return;
      }
    }
    waiting.push([req, res]);
    scheduleTurnEnd();
  };
}
