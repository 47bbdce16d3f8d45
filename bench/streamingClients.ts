/**
 * The subscriber side of `npm run bench -- streaming`, in its own process so that reading 1 000
 * streams does not slow the server's event loop it measures. Opens one SSE stream (POST, the JSON
 * subscription) per address group given on stdin's first message, tells the parent when all are
 * subscribed, and on `stop` answers every `transactions` event it got: its block (from the id),
 * when it arrived (Date.now(), the parent's clock too), and how many transactions it held.
 */
import http from 'node:http';
import { onSseFrames } from './sseFrames';

interface Start {
  readonly url: string;
  readonly groups: readonly (readonly string[])[];
}

export interface Arrival {
  readonly seqno: number;
  readonly at: number;
  readonly transactions: number;
}

const arrivals: Arrival[] = [];
const requests: http.ClientRequest[] = [];
let connected = 0;
let failed = 0;

function open(url: URL, addresses: readonly string[], total: number): void {
  const body = JSON.stringify({ types: ['transactions'], addresses });
  const req = http.request(
    { host: url.hostname, port: url.port, path: '/api/streaming/v2/sse', method: 'POST', agent: false, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } },
    (res) => {
      if (res.statusCode !== 200) {
        failed++;
        res.resume();
        return;
      }
      onSseFrames(res, (frame, at) => {
        if (frame.startsWith('event: connected')) {
          if (++connected === total) process.send!({ kind: 'connected', connected, failed });
          return;
        }
        const id = /^id: (\d+):\d+$/m.exec(frame);
        const data = /^data: (.*)$/m.exec(frame);
        if (!id || !data) return;
        const event = JSON.parse(data[1]!) as { type: string; transactions?: unknown[] };
        if (event.type === 'transactions') arrivals.push({ seqno: Number(id[1]), at, transactions: event.transactions?.length ?? 0 });
      });
    },
  );
  req.on('error', () => {
    failed++;
  });
  req.end(body);
  requests.push(req);
}

/** The flood of `npm run bench -- streaming`'s hostile row: `count` SSE opens with one key, at most `inFlight` at once; the answer statuses and times. */
export interface Flood {
  readonly url: string;
  readonly count: number;
  readonly inFlight: number;
  readonly key: string;
  readonly address: string;
}

const flooding: http.ClientRequest[] = [];

async function flood(f: Flood): Promise<void> {
  const url = new URL(f.url);
  const body = JSON.stringify({ types: ['transactions'], addresses: [f.address] });
  const statuses: Record<string, number> = {};
  const took: number[] = [];
  let next = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const started = Date.now();
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: '/api/streaming/v2/sse',
          method: 'POST',
          agent: false,
          headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'X-API-Key': f.key },
        },
        (res) => {
          took.push(Date.now() - started);
          statuses[String(res.statusCode)] = (statuses[String(res.statusCode)] ?? 0) + 1;
          if (res.statusCode === 200) flooding.push(req);
          else res.resume();
          resolve();
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        statuses[err.code ?? 'error'] = (statuses[err.code ?? 'error'] ?? 0) + 1;
        resolve();
      });
      req.end(body);
    });
  const started = Date.now();
  await Promise.all(
    Array.from({ length: f.inFlight }, async () => {
      while (next++ < f.count) await one();
    }),
  );
  process.send!({ kind: 'flooded', statuses, took, ms: Date.now() - started });
}

process.on('message', (message: { kind: 'start'; start: Start } | { kind: 'flood'; flood: Flood } | { kind: 'stop' }) => {
  if (message.kind === 'flood') {
    void flood(message.flood);
    return;
  }
  if (message.kind === 'start') {
    const url = new URL(message.start.url);
    for (const group of message.start.groups) open(url, group, message.start.groups.length);
    return;
  }
  for (const req of [...requests, ...flooding]) req.destroy();
  process.send!({ kind: 'arrivals', arrivals, failed }, () => process.exit(0));
});
