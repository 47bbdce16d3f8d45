import net from 'node:net';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { startServer } from '../../src/server';
import { ScriptedLiteServer } from '../helpers/scriptedLiteServer';

/** --keep-alive-timeout: an idle keep-alive connection is closed by the server after it, not before. */
test('an idle keep-alive connection is closed after --keep-alive-timeout', async () => {
  const lite = new ScriptedLiteServer('k');
  await lite.start();
  const flags = ['--trust-liteservers', '--port', '0', '--metrics-port', '0', '--keyless-rps', '0', '--keep-alive-timeout', '700'];
  const running = await startServer(loadConfig(flags, {}).config, pino({ level: 'silent' }), {
    servers: [lite.endpoint()],
    stop: () => lite.stop(),
  });
  try {
    const { hostname, port } = new URL(running.url);
    const socket = net.connect(Number(port), hostname);
    let answered = 0;
    let firstAnswerAt = 0;
    socket.on('data', (chunk: Buffer) => {
      if (chunk.toString('latin1').startsWith('HTTP/1.1 200')) {
        answered++;
        firstAnswerAt ||= Date.now();
      }
    });
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    socket.write(`GET /api/v2/healthcheck HTTP/1.1\r\nHost: ${hostname}\r\nConnection: keep-alive\r\n\r\n`);
    const closedAt = await closed;
    expect(answered).toBe(1);
    const idle = closedAt - firstAnswerAt;
    expect(idle).toBeGreaterThanOrEqual(600);
    expect(idle).toBeLessThan(10_000);
  } finally {
    await running.stop();
  }
});
