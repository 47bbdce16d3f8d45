import type { WebSocket } from 'ws';
import type { StreamTransport } from './connection';

/** Protocol-level pings keep idle connections alive through proxies (clients need not answer them in code). */
const WS_PING_MS = 15_000;

/**
 * One WebSocket connection as a stream: each notification is one text message, toncenter's JSON
 * plus our `event_id` (the resume id); answers to operations are `{"id":…,"status":…}` or
 * `{"id":…,"error":…}` as toncenter sends them.
 */
export class WsTransport implements StreamTransport {
  readonly kind = 'ws';
  private readonly pinger: NodeJS.Timeout;

  constructor(private readonly socket: WebSocket) {
    this.pinger = setInterval(() => {
      if (this.open) socket.ping();
    }, WS_PING_MS);
    this.pinger.unref();
    socket.on('close', () => clearInterval(this.pinger));
  }

  get open(): boolean {
    return this.socket.readyState === this.socket.OPEN;
  }

  /** An answer to an operation (StatusResponse or ErrorResponse). */
  answer(body: { id?: string; status?: string; error?: string }): void {
    if (this.open) this.socket.send(JSON.stringify(body));
  }

  writeEvent(id: string, payload: string): void {
    // The payload is a JSON object: the id goes in as its last field.
    this.socket.send(id ? `${payload.slice(0, -1)},"event_id":"${id}"}` : payload);
  }

  bufferedBytes(): number {
    return this.socket.bufferedAmount;
  }

  async drained(): Promise<void> {
    // ws has no 'drain' event of its own; its socket's buffer is checked at a short interval.
    while (this.open && this.socket.bufferedAmount > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  closeWithReason(reason: string, lastEventId: string | null, goingAway = false): void {
    if (!this.open) return;
    this.socket.send(JSON.stringify({ error: reason, last_event_id: lastEventId }));
    // 1001: the server is going away; 1008: this client broke a rule (too slow).
    this.socket.close(goingAway ? 1001 : 1008, reason.slice(0, 120));
    clearInterval(this.pinger);
  }
}
