import type { LiveListener, SourceBlock } from './bus';
import { renderFor, type DeliveryMemory, type StreamEvent } from './events';
import { streamingMetrics } from './metrics';
import type { Subscription } from './subscription';

/** How one transport writes to its client (sse.ts, ws.ts). */
export interface StreamTransport {
  readonly kind: 'sse' | 'ws';
  /** Writes one event; `id` is empty for events without one (trace_invalidated). */
  writeEvent(id: string, payload: string): void;
  /** Bytes written and not yet taken by the client's socket. */
  bufferedBytes(): number;
  /** Resolves when the socket took what was buffered (or closed). */
  drained(): Promise<void>;
  /** Tells the client why (a last frame) and closes; `goingAway`: the server stops. */
  closeWithReason(reason: string, lastEventId: string | null, goingAway?: boolean): void;
  /** Whether the connection is still open. */
  readonly open: boolean;
}

/**
 * One client's stream: its subscription, the events it gets (toncenter's AdjustForClient) and the
 * bound on what may wait for it. A live event that finds more than `queueBytes` unsent closes the
 * connection with a reason naming the last id it got, never buffers without bound; a replay waits
 * for the client instead (it reads from the index at the client's pace).
 */
export class StreamConnection implements LiveListener {
  private readonly memory: DeliveryMemory = { deliveredTraces: new Set() };
  private lastId: string | null = null;
  private closedValue = false;

  constructor(
    readonly transport: StreamTransport,
    private subscriptionValue: Subscription,
    private readonly queueBytes: number,
    private readonly onClose: (reason: string) => void,
  ) {}

  get subscription(): Subscription {
    return this.subscriptionValue;
  }

  set subscription(next: Subscription) {
    this.subscriptionValue = next;
  }

  get lastEventId(): string | null {
    return this.lastId;
  }

  get closed(): boolean {
    return this.closedValue || !this.transport.open;
  }

  deliver(id: string, event: StreamEvent, block: SourceBlock): void {
    if (this.closed) return;
    const payload = renderFor(event, this.subscriptionValue, this.memory);
    if (payload === undefined) return;
    if (this.transport.bufferedBytes() > this.queueBytes) {
      this.close('slow_consumer', `the client did not read its events fast enough (more than ${this.queueBytes} bytes waiting)`);
      return;
    }
    this.write(id, event, payload, 'live');
    streamingMetrics.lag.observe(Math.max(0, Date.now() - block.committedAt) / 1000);
  }

  /** A replayed event: waits while the client's socket is full instead of closing. */
  async replay(id: string, event: StreamEvent): Promise<void> {
    if (this.closed) return;
    const payload = renderFor(event, this.subscriptionValue, this.memory);
    if (payload === undefined) return;
    while (this.transport.bufferedBytes() > this.queueBytes && !this.closed) await this.transport.drained();
    if (this.closed) return;
    this.write(id, event, payload, 'replay');
  }

  private write(id: string, event: StreamEvent, payload: string, mode: 'live' | 'replay'): void {
    this.transport.writeEvent(id, payload);
    if (id) this.lastId = id;
    streamingMetrics.events.inc({ type: event.type, mode });
  }

  /** Ends the stream with a reason frame (slow consumer, shutdown); `metric` labels the drop. */
  close(metric: 'slow_consumer' | 'shutdown', reason: string): void {
    if (this.closedValue) return;
    this.closedValue = true;
    streamingMetrics.drops.inc({ reason: metric });
    if (this.transport.open) this.transport.closeWithReason(reason, this.lastId, metric === 'shutdown');
    this.onClose(metric);
  }

  /** The client went away (or a transport error): no frame. */
  ended(): void {
    if (this.closedValue) return;
    this.closedValue = true;
    this.onClose('client');
  }
}

/** Counts open streams per limiting key (an API key's name, or a keyless client's IP). */
export class ConnectionCounter {
  private readonly counts = new Map<string, number>();

  /** Takes a slot, or returns false when `limit` (0 = none) are open already. */
  tryOpen(key: string, limit: number): boolean {
    const current = this.counts.get(key) ?? 0;
    if (limit > 0 && current >= limit) return false;
    this.counts.set(key, current + 1);
    return true;
  }

  release(key: string): void {
    const current = this.counts.get(key) ?? 0;
    if (current <= 1) this.counts.delete(key);
    else this.counts.set(key, current - 1);
  }

  count(key: string): number {
    return this.counts.get(key) ?? 0;
  }
}
