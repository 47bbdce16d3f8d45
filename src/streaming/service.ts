import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import express, { type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { AccessControl, KeylessStreamLimits, StreamAllowance } from '../auth';
import type { AppConfig } from '../config';
import { ApiError, ValidationError } from '../errors';
import { boundsRefusal, readBoundedJson, scanJson } from '../intake';
import { EventBus, parseEventId, ResumeError, type EventId, type ReplaySource, type SourceBlock } from './bus';
import type { WantedAnnotations } from './builder';
import { ConnectionCounter, StreamConnection } from './connection';
import type { StreamEvent } from './events';
import { streamingMetrics } from './metrics';
import { httpStatusOf } from '../httpErrors';
import { SseTransport } from './sse';
import {
  applySubscribe,
  applyUnsubscribe,
  emptySubscription,
  parseSseSubscription,
  readSubscriptionFields,
  SubscriptionError,
  type Subscription,
} from './subscription';
import { WsTransport } from './ws';

/** A subscription body: 1 024 addresses and 1 024 trace hashes fit in ~130 KiB. */
export const SUBSCRIPTION_BODY_LIMIT = 256 * 1024;
/** One WebSocket message (an operation); ws closes the connection with 1009 above it. */
export const WS_MESSAGE_LIMIT = 256 * 1024;

export const WS_PATH = '/api/streaming/v2/ws';

export type StreamingConfig = Pick<
  AppConfig,
  'streamKeylessConnections' | 'streamKeylessAddresses' | 'streamQueue' | 'streamWindow' | 'streamWindowBytes' | 'trustProxy' | 'requestTimeout'
>;

/** Whether events are flowing, for /api/streaming/healthz. */
export interface SourceStatus {
  readonly ok: boolean;
  readonly reason: string | null;
  /** Where events come from: `index` (its committed blocks), `chain` (the verified head, --index off). */
  readonly source?: 'index' | 'chain';
}

export interface StreamingOptions {
  readonly config: StreamingConfig;
  readonly logger: Logger;
  readonly access?: AccessControl;
  /** The index, to rebuild events older than the in-memory window; absent with --index off. */
  readonly replay?: ReplaySource;
  /** The event source's state (the index pipeline, or the live chain source without it); absent: no source. */
  readonly sourceStatus?: () => SourceStatus;
  /**
   * Starts the event source, called once, at the first streaming request (SSE, WebSocket upgrade,
   * healthz): the index thread's follower and its builder then build events only for an instance
   * that serves streaming (docs/streaming.md). Absent: the source was started by the caller.
   */
  readonly startSource?: () => void;
}

/** toncenter's ErrorResponse / StatusResponse (`id` only when the request had one). */
function withId(id: string | undefined, body: { status?: string; error?: string }): Record<string, string> {
  return (id === undefined ? { ...body } : { id, ...body }) as Record<string, string>;
}

const LIST_QUERY_FIELDS = ['addresses', 'trace_external_hash_norms', 'types', 'action_types', 'supported_action_types'];
const BOOL_QUERY_FIELDS = ['include_address_book', 'include_metadata'];

/**
 * `GET /api/streaming/v2/sse?types=…&addresses=a,b`: the subscription in the query string (ours:
 * a browser's EventSource can only GET). Lists are comma-separated; the rest as in the body.
 */
function queryToBody(query: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    if (typeof value !== 'string') continue;
    if (LIST_QUERY_FIELDS.includes(name)) body[name] = value === '' ? [] : value.split(',');
    else if (BOOL_QUERY_FIELDS.includes(name)) body[name] = value === 'true' || value === '1';
    else if (name === 'min_finality' || name === 'id') body[name] = value;
  }
  return body;
}

/**
 * The streaming API of one instance: the SSE and WebSocket endpoints, their limits, the event bus
 * the source publishes into, and the clean close on shutdown.
 */
export class StreamingService {
  readonly bus: EventBus;
  private readonly counter = new ConnectionCounter();
  private readonly connections = new Set<StreamConnection>();
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: WS_MESSAGE_LIMIT });
  private readonly keyless: KeylessStreamLimits;
  private closing = false;
  private lastPublishedAt: number | null = null;
  private wantedBefore: WantedAnnotations = { addressBook: false, metadata: false };
  private sourceStarted = false;
  private readonly wantsListeners = new Set<(wants: WantedAnnotations) => void>();

  constructor(private readonly options: StreamingOptions) {
    this.bus = new EventBus({ windowEvents: options.config.streamWindow, windowBytes: options.config.streamWindowBytes }, options.replay);
    this.keyless = { connections: options.config.streamKeylessConnections, addresses: options.config.streamKeylessAddresses };
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  wantsAnnotations(): WantedAnnotations {
    let addressBook = false;
    let metadata = false;
    for (const connection of this.connections) {
      addressBook ||= connection.subscription.includeAddressBook;
      metadata ||= connection.subscription.includeMetadata;
    }
    return { addressBook, metadata };
  }

  /** Starts the event source if it is not yet (options.startSource): the first streaming request does. */
  useSource(): void {
    if (this.sourceStarted) return;
    this.sourceStarted = true;
    this.options.startSource?.();
  }

  /** Called with wantsAnnotations() whenever it changes (the index thread builds the events and must know). */
  onAnnotationsWanted(listener: (wants: WantedAnnotations) => void): void {
    this.wantsListeners.add(listener);
  }

  /** The source's next block (the index committed it). */
  publish(block: SourceBlock): void {
    this.lastPublishedAt = Date.now();
    streamingMetrics.blocks.inc({ outcome: 'published' });
    this.bus.publish(block);
  }

  /** Events of traces not in a block yet (src/emulate's pending traces): live connections only. */
  publishPending(events: readonly StreamEvent[]): void {
    for (const event of events) this.bus.deliverLive(event);
  }

  /** The index rolled back to `seqno` (the local chain was rewound). */
  rewind(seqno: number): void {
    this.bus.rewind(seqno);
  }

  /** `/api/streaming/*`: mount at `/api/streaming`. */
  router(): express.Router {
    const router = express.Router();
    router.post('/v2/sse', (req, res) => {
      this.useSource();
      void this.openSse(req, res, 'body');
    });
    router.get('/v2/sse', (req, res) => {
      this.useSource();
      void this.openSse(req, res, 'query');
    });
    router.get('/v2/ws', (_req, res) => {
      res.status(426).type('text/plain').send('Upgrade Required');
    });
    router.get('/healthz', (_req, res) => this.healthz(res));
    return router;
  }

  private healthz(res: Response): void {
    this.useSource();
    const status: SourceStatus = this.options.sourceStatus?.() ?? { ok: false, reason: 'no event source' };
    const now = Math.floor(Date.now() / 1000);
    const component = {
      ok: status.ok,
      ...(status.source ? { source: status.source } : {}),
      ...(status.reason ? { error: status.reason } : {}),
      last_mc_seqno: this.bus.lastSeqno,
      last_event_id: this.bus.newestEventId(),
      ...(this.lastPublishedAt !== null ? { age_seconds: Math.floor((Date.now() - this.lastPublishedAt) / 1000) } : {}),
    };
    res.status(status.ok ? 200 : 503).json({ ok: status.ok, now, connections: this.connections.size, components: { 'event-source': component } });
  }

  private clientIp(req: IncomingMessage): string {
    if (this.options.config.trustProxy) {
      const forwarded = req.headers['x-forwarded-for'];
      const last = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',').at(-1)?.trim();
      if (last) return last;
    }
    return req.socket.remoteAddress ?? 'unknown';
  }

  private allowance(req: IncomingMessage): StreamAllowance {
    if (this.options.access) return this.options.access.streamAllowance(req, this.clientIp(req), this.keyless);
    return { limitingKey: `ip:${this.clientIp(req)}`, maxConnections: this.keyless.connections, maxAddresses: this.keyless.addresses };
  }

  private register(connection: StreamConnection): void {
    this.connections.add(connection);
    streamingMetrics.connections.inc({ transport: connection.transport.kind });
    this.countSubscriptions();
  }

  private unregister(connection: StreamConnection, allowance: StreamAllowance): void {
    if (!this.connections.delete(connection)) return;
    this.bus.removeLive(connection);
    this.counter.release(allowance.limitingKey);
    streamingMetrics.connections.dec({ transport: connection.transport.kind });
    this.countSubscriptions();
  }

  private countSubscriptions(): void {
    let count = 0;
    for (const connection of this.connections) {
      const s = connection.subscription;
      if (s.types.size > 0 && (s.addresses.size > 0 || s.traces.size > 0)) count++;
    }
    streamingMetrics.subscriptions.set(count);
    // Every change of the connections or their subscriptions comes through here.
    const wants = this.wantsAnnotations();
    if (wants.addressBook !== this.wantedBefore.addressBook || wants.metadata !== this.wantedBefore.metadata) {
      this.wantedBefore = wants;
      for (const listener of this.wantsListeners) listener(wants);
    }
  }

  private async openSse(req: Request, res: Response, from: 'body' | 'query'): Promise<void> {
    let requestId: string | undefined;
    const refuse = (status: number, error: string, reason: string) => {
      streamingMetrics.drops.inc({ reason });
      if (!res.headersSent) res.status(status).json(withId(requestId, { error }));
    };
    if (this.closing) return refuse(503, 'the server is shutting down', 'shutdown');
    let allowance: StreamAllowance;
    let body: unknown;
    let subscription: Subscription;
    try {
      allowance = this.allowance(req);
      body =
        from === 'body'
          ? await readBoundedJson(req, { limitBytes: SUBSCRIPTION_BODY_LIMIT, timeoutMs: this.options.config.requestTimeout })
          : queryToBody(req.query as Record<string, unknown>);
      const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
      if (typeof fields['id'] === 'string') requestId = fields['id'].slice(0, 256);
      const parsed = parseSseSubscription(body, req.get('x-actions-version'));
      subscription = parsed.subscription;
    } catch (err) {
      if (err instanceof SubscriptionError) return refuse(err.status, err.message, 'bad_request');
      // Not JSON (or nested past the bound): toncenter's BodyParser failure is a 400 with this prefix.
      if (err instanceof ValidationError) {
        return refuse(400, `invalid subscription request: ${err.message.replace(/^failed to parse post request: /, '')}`, 'bad_request');
      }
      if (err instanceof ApiError) return refuse(httpStatusOf(err), err.message, 'bad_request');
      this.options.logger.error({ err }, 'streaming: unexpected error reading a subscription');
      return refuse(500, 'internal error', 'bad_request');
    }
    let resumeFrom: EventId | undefined;
    const lastEventId = req.get('last-event-id') ?? (typeof req.query['last_event_id'] === 'string' ? req.query['last_event_id'] : undefined);
    if (lastEventId !== undefined && lastEventId !== '') {
      resumeFrom = parseEventId(lastEventId);
      if (!resumeFrom) return refuse(400, `invalid Last-Event-ID: ${JSON.stringify(lastEventId.slice(0, 64))} (an id is <mc seqno>:<index>)`, 'resume');
    }
    if (!this.counter.tryOpen(allowance.limitingKey, allowance.maxConnections)) {
      return refuse(429, `connection limit reached: ${allowance.maxConnections} active connections`, 'connection_limit');
    }
    if (allowance.maxAddresses > 0 && subscription.addresses.size > allowance.maxAddresses) {
      this.counter.release(allowance.limitingKey);
      return refuse(400, `too many addresses: ${subscription.addresses.size} > max ${allowance.maxAddresses}`, 'address_limit');
    }
    if (resumeFrom) {
      try {
        await this.bus.checkResume(resumeFrom);
      } catch (err) {
        this.counter.release(allowance.limitingKey);
        if (err instanceof ResumeError) return refuse(err.status, err.message, 'resume');
        this.options.logger.error({ err }, 'streaming: resume check failed');
        return refuse(503, 'the index could not be read to resume; try again', 'resume');
      }
    }
    if (res.destroyed || this.closing) {
      this.counter.release(allowance.limitingKey);
      return;
    }
    const transport = new SseTransport(res);
    const connection = new StreamConnection(transport, subscription, this.options.config.streamQueue, () => this.unregister(connection, allowance));
    this.register(connection);
    res.on('close', () => connection.ended());
    transport.connected(requestId);
    if (resumeFrom) this.startResume(connection, resumeFrom, () => !connection.closed);
    else this.bus.addLive(connection);
  }

  private startResume(connection: StreamConnection, from: EventId, stillWanted: () => boolean): void {
    this.bus
      .resume(from, (id, event) => connection.replay(id, event), connection, stillWanted)
      .catch((err: unknown) => {
        this.options.logger.warn({ err }, 'streaming: replay failed; closing the stream');
        connection.close('shutdown', err instanceof ResumeError ? err.message : 'the index could not be read to resume; reconnect with the last id');
      });
  }

  /** An HTTP upgrade: true when it is the streaming WebSocket (handled here), false for others. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const path = (req.url ?? '').split('?', 1)[0]!.toLowerCase().replace(/\/+$/, '');
    if (path !== WS_PATH) return false;
    this.useSource();
    const refuse = (status: number, text: string) => {
      const body = JSON.stringify({ error: text });
      socket.end(
        `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Service Unavailable'}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    };
    if (this.closing) {
      refuse(503, 'the server is shutting down');
      return true;
    }
    let allowance: StreamAllowance;
    try {
      allowance = this.allowance(req);
    } catch (err) {
      refuse(err instanceof ApiError ? httpStatusOf(err) : 500, err instanceof Error ? err.message : 'refused');
      return true;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.openWs(ws, req, allowance));
    return true;
  }

  private openWs(ws: WebSocket, req: IncomingMessage, allowance: StreamAllowance): void {
    const transport = new WsTransport(ws);
    if (!this.counter.tryOpen(allowance.limitingKey, allowance.maxConnections)) {
      streamingMetrics.drops.inc({ reason: 'connection_limit' });
      transport.answer({ error: `connection limit reached: ${allowance.maxConnections} active connections` });
      ws.close(1008, 'connection limit reached');
      return;
    }
    const header = req.headers['x-actions-version'];
    const connection = new StreamConnection(
      transport,
      emptySubscription(typeof header === 'string' && header !== '' ? header : undefined),
      this.options.config.streamQueue,
      () => this.unregister(connection, allowance),
    );
    this.register(connection);
    this.bus.addLive(connection);
    let generation = 0;
    ws.on('close', () => connection.ended());
    ws.on('error', () => connection.ended());
    ws.on('message', (data: RawData, isBinary: boolean) => {
      void this.onWsMessage(connection, transport, allowance, data, isBinary, () => ++generation, () => generation);
    });
  }

  private async onWsMessage(
    connection: StreamConnection,
    transport: WsTransport,
    allowance: StreamAllowance,
    data: RawData,
    isBinary: boolean,
    nextGeneration: () => number,
    currentGeneration: () => number,
  ): Promise<void> {
    const bytes = isBinary ? Buffer.alloc(0) : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    // The request bodies' bounds (nesting, elements), checked before JSON.parse spends on them.
    const refusal = boundsRefusal(scanJson(bytes));
    if (refusal !== undefined) {
      transport.answer({ error: `invalid request envelope: ${refusal}` });
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(bytes.toString('utf8'));
    } catch (err) {
      transport.answer({ error: `invalid request envelope: ${err instanceof SyntaxError ? err.message : 'not JSON'}` });
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      transport.answer({ error: `invalid request envelope: json: cannot unmarshal ${Array.isArray(message) ? 'array' : typeof message} into Go value of type v2.Envelope` });
      return;
    }
    const envelope = message as Record<string, unknown>;
    const rawId = envelope['id'];
    if (rawId !== undefined && rawId !== null && typeof rawId !== 'string') {
      transport.answer({ error: `invalid request envelope: json: cannot unmarshal ${typeof rawId} into Go struct field Envelope.id of type string` });
      return;
    }
    const id = typeof rawId === 'string' ? rawId.slice(0, 256) : undefined;
    const operation = envelope['operation'];
    if (operation !== undefined && operation !== null && typeof operation !== 'string') {
      transport.answer({ error: `invalid request envelope: json: cannot unmarshal ${typeof operation} into Go struct field Envelope.operation of type v2.Operation` });
      return;
    }
    try {
      switch (operation) {
        case 'ping':
          transport.answer(withId(id, { status: 'pong' }));
          return;
        case 'unsubscribe': {
          const raw = readSubscriptionFields(message, 'UnsubscribeRequest', 'invalid unsubscribe request');
          connection.subscription = applyUnsubscribe(connection.subscription, raw);
          this.countSubscriptions();
          transport.answer(withId(id, { status: 'unsubscribed' }));
          return;
        }
        case 'subscribe': {
          const raw = readSubscriptionFields(message, 'SubscribeRequest', 'invalid subscribe request');
          const next = applySubscribe(connection.subscription, raw);
          if (allowance.maxAddresses > 0 && next.addresses.size > allowance.maxAddresses) {
            streamingMetrics.drops.inc({ reason: 'address_limit' });
            transport.answer(withId(id, { error: `address limit exceeded: current 0 + new ${next.addresses.size} > max ${allowance.maxAddresses}` }));
            return;
          }
          let from: EventId | undefined;
          if (raw.from !== undefined && raw.from !== '') {
            from = parseEventId(raw.from);
            if (!from) {
              transport.answer(withId(id, { error: `invalid from: ${JSON.stringify(raw.from.slice(0, 64))} (an id is <mc seqno>:<index>)` }));
              return;
            }
            await this.bus.checkResume(from);
          }
          const generation = nextGeneration();
          connection.subscription = next;
          this.countSubscriptions();
          transport.answer(withId(id, { status: 'subscribed' }));
          if (from) {
            this.bus.removeLive(connection);
            this.startResume(connection, from, () => !connection.closed && currentGeneration() === generation);
          }
          return;
        }
        default:
          transport.answer(withId(id, { error: `unknown operation: ${typeof operation === 'string' ? operation.slice(0, 64) : ''}` }));
      }
    } catch (err) {
      if (err instanceof SubscriptionError || err instanceof ResumeError) {
        transport.answer(withId(id, { error: err.message }));
        return;
      }
      this.options.logger.error({ err }, 'streaming: unexpected error in a WebSocket operation');
      transport.answer(withId(id, { error: 'internal error' }));
    }
  }

  /**
   * Ends every open stream with its reason frame (the last id it got), the service staying open:
   * clients reconnect and resume (a browser's EventSource does by itself, with Last-Event-ID).
   */
  closeStreams(reason: string): void {
    for (const connection of [...this.connections]) connection.close('shutdown', reason);
  }

  /**
   * SIGTERM: no new streams; every open one gets its reason frame (with the last id it got, to
   * resume from) and is closed; the bus stops.
   */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.closeStreams('the server is shutting down; reconnect with the last event id');
    this.bus.close();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
