import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Address, toNano } from '@ton/core';
import puppeteer, { type Browser, type HTTPRequest, type Page } from 'puppeteer-core';
import type { TestDatabase } from '../helpers/indexDatabases';
import type { LocalStack } from '../helpers/localStack';
import { startIndexedStack } from './indexedStack';
import { sendTransfer } from '../helpers/v2Calls';
import { until } from './support';

/**
 * The browser's own EventSource in headless Chromium: a page served by this test (another origin
 * than the API, as a dapp is) subscribes to a wallet with the GET form of the SSE endpoint, a
 * transfer on the embedded chain is made, and the page receives its `transactions` event with the
 * hashes v2 lists and our resume id as the event's `lastEventId`. Then the server drops the stream
 * (as a restart would) and the browser reconnects by itself with `Last-Event-ID`; a transfer
 * published while that reconnect is held arrives through the resume, once, after the first.
 *
 * Chromium: CHROMIUM_PATH or /usr/bin/chromium (.ci/run installs it). Without it the suite is
 * skipped with a message, except on CI (CI set), where it fails.
 */

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const HAVE_CHROMIUM = fs.existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) {
  if (process.env['CI']) throw new Error(`${CHROMIUM} is missing on CI: apt-get install -y chromium (.ci/run installs it)`);
  console.warn(`test/streaming/browser.test.ts skipped: no Chromium at ${CHROMIUM} (set CHROMIUM_PATH or apt-get install -y chromium)`);
}

jest.setTimeout(300_000);

interface PageEvent {
  id: string;
  data: { type: string; finality: string; transactions?: { hash: string; account: string }[] };
}

/** The page: an EventSource on the API's SSE endpoint, events kept on window for the test to read. */
function pageHtml(sseUrl: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>streaming</title></head><body><script>
window.connected = [];
window.events = [];
window.errors = 0;
const source = new EventSource(${JSON.stringify(sseUrl)});
source.addEventListener('connected', (e) => window.connected.push(JSON.parse(e.data)));
source.addEventListener('event', (e) => window.events.push({ id: e.lastEventId, data: JSON.parse(e.data) }));
source.onerror = () => { window.errors++; };
</script></body></html>`;
}

(HAVE_CHROMIUM ? describe : describe.skip)('EventSource in headless Chromium against the SSE endpoint', () => {
  let db: TestDatabase;
  let stack: LocalStack;
  let browser: Browser;
  let profile: string;
  let pages: Server;
  let pageUrl: string;
  const recipient = new Address(0, Buffer.alloc(32, 0x6b));
  const raw = `0:${'6B'.repeat(32)}`;

  beforeAll(async () => {
    ({ stack, db } = await startIndexedStack());
    const sseUrl = `${stack.url}/api/streaming/v2/sse?types=transactions&addresses=${encodeURIComponent(recipient.toString())}`;
    pages = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(pageHtml(sseUrl));
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    // localhost, not 127.0.0.1: another origin than the API's, so CORS is exercised.
    pageUrl = `http://localhost:${(pages.address() as AddressInfo).port}/`;
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'thb-chromium-'));
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      userDataDir: profile,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    if (profile) fs.rmSync(profile, { recursive: true, force: true });
    await new Promise((resolve) => pages?.close(resolve));
    await stack?.stop();
    await db?.drop();
  });

  const eventsOf = (page: Page) => page.evaluate(() => (globalThis as unknown as { events: PageEvent[] }).events);

  test('receives the transfer as a transactions event, and resumes by itself with Last-Event-ID', async () => {
    const page = await browser.newPage();
    // EventSource requests are seen (their headers) and the reconnect is held until the test lets it go.
    await page.setRequestInterception(true);
    const streamRequests: HTTPRequest[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'eventsource') {
        streamRequests.push(request);
        if (streamRequests.length === 2) return;
      }
      void request.continue();
    });
    await page.goto(pageUrl, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForFunction(() => (globalThis as unknown as { connected: unknown[] }).connected.length === 1, { timeout: 60_000 });
    expect(await page.evaluate(() => (globalThis as unknown as { connected: unknown[] }).connected[0])).toEqual({ status: 'subscribed' });

    await sendTransfer(stack, [recipient], toNano('0.2'));
    await page.waitForFunction(() => (globalThis as unknown as { events: unknown[] }).events.length >= 1, { timeout: 120_000 });
    const [first] = await eventsOf(page);
    expect(first!.data.type).toBe('transactions');
    expect(first!.data.finality).toBe('finalized');
    expect(first!.id).toMatch(/^\d+:\d+$/);
    const v2 = (await (await fetch(`${stack.api}/getTransactions?address=${recipient.toString()}&limit=10`)).json()) as { result: { transaction_id: { hash: string } }[] };
    expect(first!.data.transactions!.map((t) => t.hash)).toEqual(v2.result.map((t) => t.transaction_id.hash));
    expect(first!.data.transactions!.every((t) => t.account === raw)).toBe(true);

    // The server ends the stream (as a restart does). While the browser's reconnect is held, a
    // second transfer is indexed and published: it can only reach the page through the resume.
    const streaming = stack.server.services.streaming!;
    const index = stack.server.services.index!;
    expect(streaming.connectionCount).toBe(1);
    streaming.closeStreams('test: the server dropped the stream');
    await until(() => streamRequests.length === 2, 'the browser reconnects', 60_000);
    // (Chromium adds Last-Event-ID below the interception layer, so it is not in these headers:
    // the proof is that the second event, published before the reconnect reached the server,
    // arrives at all: only a resume from the first event's id can send it.)
    await sendTransfer(stack, [recipient], toNano('0.3'));
    const head = (await (await fetch(`${stack.api}/getMasterchainInfo`)).json()) as { result: { last: { seqno: number } } };
    await until(() => (streaming.bus.lastSeqno ?? 0) >= head.result.last.seqno && (index.health().status.committedMcSeqno ?? 0) >= head.result.last.seqno, 'the transfer published', 120_000);
    await streamRequests[1]!.continue();
    await page.waitForFunction(() => (globalThis as unknown as { connected: unknown[] }).connected.length === 2, { timeout: 60_000 });
    await page.waitForFunction(() => (globalThis as unknown as { events: unknown[] }).events.length >= 2, { timeout: 120_000 });
    const events = await eventsOf(page);
    expect(events).toHaveLength(2);
    const v2After = (await (await fetch(`${stack.api}/getTransactions?address=${recipient.toString()}&limit=1`)).json()) as { result: { transaction_id: { hash: string } }[] };
    expect(events[1]!.data.transactions!.map((t) => t.hash)).toEqual([v2After.result[0]!.transaction_id.hash]);
    const [a, b] = events.map((e) => e.id.split(':').map(Number) as [number, number]);
    expect(b![0]).toBeGreaterThan(a![0]);
    await page.close();
  });
});
