import { createServer, type AddressInfo } from 'node:net';

/**
 * Waiting in tests: poll a condition until it holds (answering how long it took, for the suites
 * that assert timing), and a free local port for a server a test starts.
 */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what = 'condition'): Promise<number> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what} not met in time`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
