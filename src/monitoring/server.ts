import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { StartupError } from '../errors';
import { refreshPoolGauges } from './pool';
import { indexMetricsText, metricsRegistry } from '../metrics';

export interface MetricsServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The metrics endpoint on its own port (`--metrics-port`, 8082 as toncenter's monitor), so it is
 * never behind the API's keys and rate limits and can stay off the public interface:
 * `GET /metrics` and `GET /stats` (toncenter's monitor path) both give the Prometheus text.
 */
export async function startMetricsServer(port: number, host: string, logger: Logger): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || (path !== '/metrics' && path !== '/stats')) {
      res.writeHead(req.method === 'GET' ? 404 : 405, { 'Content-Type': 'text/plain' }).end('GET /metrics or /stats\n');
      return;
    }
    refreshPoolGauges();
    // The index's metrics are in a registry of their own (the index thread's in `npm start`).
    Promise.all([metricsRegistry.metrics(), indexMetricsText()]).then(
      ([text, index]) => res.writeHead(200, { 'Content-Type': metricsRegistry.contentType }).end(text.endsWith('\n') || text === '' ? text + index : `${text}\n${index}`),
      (err: unknown) => {
        logger.error({ err }, 'metrics collection failed');
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics collection failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new StartupError(
          `--metrics-port ${port}: cannot listen on ${host}:${port} (${err.code ?? err.message}); pass another port or 0 to turn metrics off`,
        ),
      ),
    );
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  logger.info({ url: `${url}/metrics` }, 'Prometheus metrics listening');
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
