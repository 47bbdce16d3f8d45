import type http from 'node:http';

/** Calls `onFrame` with each SSE frame of `res` (the text between blank lines) and when its chunk arrived. */
export function onSseFrames(res: http.IncomingMessage, onFrame: (frame: string, at: number) => void): void {
  res.setEncoding('utf8');
  let buffer = '';
  res.on('data', (chunk: string) => {
    const at = Date.now();
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      onFrame(frame, at);
    }
  });
}
