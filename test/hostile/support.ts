import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { startServer } from '../../src/server';

/**
 * Shared pieces of the hostile-input suites: the error envelope check, the canary; the event-loop
 * stall probe is test/helpers/stallProbe.ts.
 */

export interface Answer {
  status: number;
  body: unknown;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

/** The answer must be the v2 error envelope with HTTP status = code and a text matching `text`. */
export function expectEnvelope(answer: Answer, status: number, text: RegExp): void {
  expect(answer.status).toBe(status);
  const body = answer.body as Record<string, unknown>;
  expect(body).toEqual(expect.objectContaining({ ok: false, code: status, error: expect.stringMatching(text) }));
  // Never more than a short text, whatever the input was.
  expect(String(body['error']).length).toBeLessThanOrEqual(520);
}

/** getMasterchainInfo answers 200 with a block id: the server is alive and serving. */
export async function expectCanary(api: string, headers: Record<string, string> = {}): Promise<void> {
  const res = await fetch(`${api}/getMasterchainInfo`, { headers });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { ok: boolean; result: { last: { seqno: number } } };
  expect(body.ok).toBe(true);
  expect(body.result.last.seqno).toBeGreaterThan(0);
}

/**
 * A raw HTTP exchange (no client-side checks on URLs or headers, bodies as given), so a test can
 * send what a hostile client would.
 */
export function rawRequest(
  url: string,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<Answer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        agent: false,
        host: target.hostname,
        port: target.port,
        method: options.method ?? 'GET',
        path: options.path ?? `${target.pathname}${target.search}`,
        headers: options.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body, text, headers: res.headers });
        });
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

export async function postJson(url: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<Answer> {
  return rawRequest(url, {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), ...headers },
  });
}


/**
 * Sends the headers and the first part of a body, and resolves with the answer if it comes
 * while the rest of the body has not been sent: proof that the server answered without
 * reading the body. The body is finished after the answer (or after `waitMs` without one).
 */
export function answerBeforeBody(
  url: string,
  headers: Record<string, string>,
  firstPart: string,
  rest: string,
  waitMs = 10_000,
): Promise<Answer | 'no answer before the body ended'> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(
      {
        agent: false,
        host: target.hostname,
        port: target.port,
        method: 'POST',
        path: `${target.pathname}${target.search}`,
        headers: { 'Content-Type': 'application/json', ...headers },
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown, text, headers: res.headers });
          req.end(rest);
        });
      },
    );
    req.on('error', (err) => (answered ? undefined : reject(err)));
    req.write(firstPart);
    setTimeout(() => {
      if (answered) return;
      req.end(rest);
      resolve('no answer before the body ended');
    }, waitMs).unref();
  });
}

/**
 * The API in this process over the local chain running in a child process (`ton-http-bridge
 * localnet`), for the suites that probe the event loop: the chain seals blocks on its own event
 * loop, so the probe measures the API's work only.
 */
export interface SplitStack {
  api: string;
  stop(): Promise<void>;
}

export async function startSplitStack(flags: string[] = []): Promise<SplitStack> {
  const root = path.resolve(__dirname, '..', '..');
  const configFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'thb-hostile-chain-')), 'local.config.json');
  // The compiled start command (bin/): under tsx the chain's process started several times slower.
  const child = spawn(process.execPath, [path.join(root, 'bin', 'ton-http-bridge.js'), 'localnet', '--config-out', configFile, '--accounts', '1'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => (output += chunk.toString('utf8'));
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the local chain did not start: ${output.slice(-500)}`)), 90_000);
      const check = () => {
        if (output.includes('Global config written')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout.on('data', check);
      child.once('exit', () => reject(new Error(`the local chain exited: ${output.slice(-500)}`)));
    });
    const { config } = loadConfig(
      ['--liteservers', configFile, '--port', '0', '--metrics-port', '0', '--keyless-rps', '0', '--health-interval', '200', ...flags],
      {},
    );
    const server = await startServer(config, pino({ level: 'silent' }));
    return {
      api: `${server.url}/api/v2`,
      async stop() {
        await server.stop();
        child.kill('SIGTERM');
        await exited;
      },
    };
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
}
