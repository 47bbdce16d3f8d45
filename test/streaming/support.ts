import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventSource } from 'eventsource';
import { createApiHttpServer } from '../../src/intake';
import { StreamingService, type ReplaySource, type SourceBlock, type StreamEvent } from '../../src/streaming';
import { buildTestApp } from '../helpers/app';

/** Raw upper-case addresses of test accounts. */
export const ALICE = `0:${'A1'.repeat(32)}`;
export const BOB = `0:${'B2'.repeat(32)}`;
export const CAROL = `0:${'C3'.repeat(32)}`;

/** A transactions event of one transaction on `account` (the JSON is a recognisable stub). */
export function txEvent(account: string, hash: string, trace = `trace-${hash}`): StreamEvent {
  return {
    type: 'transactions',
    finality: 'finalized',
    traceExternalHashNorm: trace,
    transactions: [{ account, addresses: [account], json: JSON.stringify({ account, hash }) }],
  };
}

export function stateEvent(account: string, balance: string): StreamEvent {
  return { type: 'account_state_change', finality: 'finalized', account, stateJson: JSON.stringify({ hash: 'h', balance }) };
}

/**
 * A real in-process event source: every block it ever produced, so it can rebuild any of them
 * (what the index does), and `emit` publishes the next one to the service.
 */
export class FedSource implements ReplaySource {
  readonly blocks_: SourceBlock[] = [];
  private next = 1;
  oldest = 1;
  constructor(private readonly service: () => StreamingService) {}

  emit(events: StreamEvent[]): SourceBlock {
    const block: SourceBlock = { mcSeqno: this.next++, committedAt: Date.now(), events };
    this.blocks_.push(block);
    this.service().publish(block);
    return block;
  }

  async oldestSeqno(): Promise<number | null> {
    return this.blocks_.length === 0 ? null : this.oldest;
  }

  async blocks(from: number, to: number): Promise<SourceBlock[]> {
    return this.blocks_.filter((b) => b.mcSeqno >= Math.max(from, this.oldest) && b.mcSeqno <= to);
  }
}

export interface StreamingServer {
  url: string;
  service: StreamingService;
  source: FedSource;
  close(): Promise<void>;
}

/** The real app (createApp) with a StreamingService fed by a FedSource, on a real socket. */
export async function startStreamingServer(flags: string[] = [], options: { replay?: boolean; window?: number; startSource?: () => void } = {}): Promise<StreamingServer> {
  // Assigned below: the source needs the service, and the service the source.
  // eslint-disable-next-line prefer-const
  let service!: StreamingService;
  const source = new FedSource(() => service);
  const base = buildTestApp(['--stream-window', String(options.window ?? 10000), ...flags]);
  service = new StreamingService({
    config: base.services.config,
    logger: base.services.logger,
    ...(options.replay === false ? {} : { replay: source }),
    sourceStatus: () => ({ ok: true, reason: null }),
    ...(options.startSource ? { startSource: options.startSource } : {}),
  });
  const { app } = buildTestApp(['--stream-window', String(options.window ?? 10000), ...flags], { streaming: service });
  const server: Server = createApiHttpServer(app, base.services.logger, 'test', app);
  server.on('upgrade', (req, socket, head: Buffer) => {
    if (!service.handleUpgrade(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    service,
    source,
    close: async () => {
      await service.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface ReceivedEvent {
  id: string;
  data: Record<string, unknown>;
}

/** An `eventsource` client POSTing `subscription`; collects `event` frames. */
export function openSse(url: string, subscription: unknown, headers: Record<string, string> = {}) {
  const events: ReceivedEvent[] = [];
  const closedFrames: Record<string, unknown>[] = [];
  let connected: Record<string, unknown> | undefined;
  const source = new EventSource(`${url}/api/streaming/v2/sse`, {
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        method: 'POST',
        body: JSON.stringify(subscription),
        headers: { ...(init?.headers as Record<string, string>), 'content-type': 'application/json', ...headers },
      }),
  });
  source.addEventListener('connected', (e) => {
    connected = JSON.parse(e.data) as Record<string, unknown>;
  });
  source.addEventListener('event', (e) => events.push({ id: e.lastEventId, data: JSON.parse(e.data) as Record<string, unknown> }));
  source.addEventListener('closed', (e) => closedFrames.push(JSON.parse(e.data) as Record<string, unknown>));
  return { source, events, closedFrames, connected: () => connected };
}

export async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
