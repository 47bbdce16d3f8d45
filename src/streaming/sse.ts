import type { ServerResponse } from 'node:http';
import type { StreamTransport } from './connection';

/** toncenter's keepalive period: a `: keepalive` comment line. */
export const SSE_KEEPALIVE_MS = 15_000;

/**
 * Server-Sent Events over one HTTP response, in toncenter's frames: `event: connected` first, then
 * `event: event` with the notification as `data`, plus our `id:` line (the resume id), and a
 * `: keepalive` comment every 15 s. A server-side close first writes `event: closed` with the reason.
 */
export class SseTransport implements StreamTransport {
  readonly kind = 'sse';
  private readonly keepalive: NodeJS.Timeout;
  private ended = false;

  constructor(private readonly res: ServerResponse) {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      // Proxies (nginx) must not hold events back in a buffer.
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    this.keepalive = setInterval(() => this.res.write(': keepalive\n\n'), SSE_KEEPALIVE_MS);
    this.keepalive.unref();
    res.on('close', () => this.stop());
  }

  get open(): boolean {
    return !this.ended && !this.res.destroyed && !this.res.writableEnded;
  }

  /** The first frame: `{"id":…,"status":"subscribed"}` (id only when the request had one). */
  connected(requestId: string | undefined): void {
    this.res.write(`event: connected\ndata: ${JSON.stringify(requestId === undefined ? { status: 'subscribed' } : { id: requestId, status: 'subscribed' })}\n\n`);
  }

  writeEvent(id: string, payload: string): void {
    this.res.write(id ? `id: ${id}\nevent: event\ndata: ${payload}\n\n` : `event: event\ndata: ${payload}\n\n`);
  }

  bufferedBytes(): number {
    return this.res.writableLength;
  }

  drained(): Promise<void> {
    if (!this.open || this.res.writableLength === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.once('drain', done);
      this.res.once('close', done);
    });
  }

  closeWithReason(reason: string, lastEventId: string | null): void {
    if (!this.open) return;
    this.res.write(`event: closed\ndata: ${JSON.stringify({ error: reason, last_event_id: lastEventId })}\n\n`);
    this.stop();
    this.res.end();
  }

  private stop(): void {
    this.ended = true;
    clearInterval(this.keepalive);
  }
}
