import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { resultSchemaRef } from '../../src/docs/results';
import { everyMethodCalls, transferBoc } from '../helpers/everyMethod';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { resultValidators } from '../helpers/openapi';
import { CALL_MODES, callV2, sendTransfer } from '../helpers/v2Calls';

/**
 * The API docs against the real local chain: every method's live answer (GET, POST, JSON-RPC)
 * validates against the result schema of the document the server serves, and Swagger UI in
 * headless Chromium lists the methods and runs "Try it out" on getMasterchainInfo.
 */

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

let stack: LocalStack;
let doc: { components: { schemas: Record<string, unknown> } };

beforeAll(async () => {
  stack = await startLocalStack();
  const wallets = stack.localnet.wallets.wallets;
  await sendTransfer(stack, [wallets[1]!.address], 1_000_000_000n);
  // The transfer's cascade lands in the next blocks.
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await callV2<unknown[]>(stack, 'GET', 'getTransactions', { address: wallets[1]!.address.toString(), limit: 1 });
    if (res.status === 200 && res.body.result.length > 0) break;
    if (Date.now() > deadline) throw new Error('the transfer did not land');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  doc = (await (await fetch(`${stack.api}/openapi.json`)).json()) as typeof doc;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe('live answers match the served document', () => {
  test('every method, on each of its verbs and JSON-RPC', async () => {
    const validator = resultValidators(doc);
    const { calls, skipped } = await everyMethodCalls(stack);
    const checked = new Set<string>();
    for (const call of calls) {
      const handler = stack.server.services.table.find(call.method)!;
      const validate = validator(resultSchemaRef(call.method).$ref);
      for (const mode of CALL_MODES) {
        if (mode === 'GET' && !handler.verbs.includes('GET')) continue;
        const res = await callV2(stack, mode, call.method, call.params);
        expect([call.method, mode, res.status]).toEqual([call.method, mode, 200]);
        const valid = validate(res.body.result);
        expect([call.method, mode, valid ? 'valid' : validate.errors]).toEqual([call.method, mode, 'valid']);
        checked.add(call.method);
      }
    }
    expect(checked.size).toBe(calls.length);
    // The chain-free answers of the remaining methods are checked where the chain allows.
    expect(skipped.sort()).toEqual(['dnsResolve', 'getTokenData', 'sendBoc', 'sendBocReturnHash', 'sendBocReturnHashNoError', 'sendQuery']);
  }, 180_000);

  test('sendBocReturnHash (POST and JSON-RPC) and sendBoc answers validate', async () => {
    const validator = resultValidators(doc);
    for (const [method, mode] of [
      ['sendBocReturnHash', 'POST'],
      ['sendBocReturnHashNoError', 'JSON-RPC'],
      ['sendBoc', 'POST'],
    ] as const) {
      const boc = await transferBoc(stack);
      const res = await callV2(stack, mode, method, { boc });
      expect([method, res.status]).toEqual([method, 200]);
      const validate = validator(resultSchemaRef(method).$ref);
      expect([method, validate(res.body.result) ? 'valid' : validate.errors]).toEqual([method, 'valid']);
      // The next transfer needs the next seqno: wait for this one to be applied.
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
  }, 60_000);
});

describe('Swagger UI in headless Chromium', () => {
  let browser: Browser | undefined;
  let profile: string;

  beforeAll(async () => {
    if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run installs it)`);
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'thb-chromium-'));
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      userDataDir: profile,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (profile) fs.rmSync(profile, { recursive: true, force: true });
  });

  test('lists the methods and runs "Try it out" on getMasterchainInfo against the local chain', async () => {
    const page = await browser!.newPage();
    const outside: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(stack.url) && !req.url().startsWith('data:')) outside.push(req.url());
    });
    await page.goto(`${stack.api}/`, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForSelector('.opblock-summary-path', { timeout: 60_000 });
    const paths = await page.$$eval('.opblock-summary-path', (nodes) =>
      nodes.map((node) => node.getAttribute('data-path') ?? node.textContent ?? ''),
    );
    for (const name of ['getMasterchainInfo', 'getAddressInformation', 'runGetMethod', 'sendBoc', 'jsonRPC']) {
      expect(paths.some((text) => text.replace(/\u200b/g, '').endsWith(`/api/v2/${name}`))).toBe(true);
    }

    const block = '#operations-blocks-getMasterchainInfo_get';
    await page.click(`${block} .opblock-summary-control`);
    await page.waitForSelector(`${block} .try-out__btn`, { timeout: 30_000 });
    await page.click(`${block} .try-out__btn`);
    await page.waitForSelector(`${block} .execute`, { timeout: 30_000 });
    await page.click(`${block} .execute`);
    await page.waitForSelector(`${block} .live-responses-table tr.response .response-col_status`, { timeout: 60_000 });
    const status = await page.$eval(`${block} .live-responses-table tr.response .response-col_status`, (node) => node.textContent?.trim());
    expect(status).toBe('200');
    const body = await page.$eval(`${block} .live-responses-table tr.response .response-col_description`, (node) => node.textContent ?? '');
    expect(body).toContain('blocks.masterchainInfo');
    // Everything came from this server: no CDN.
    expect(outside).toEqual([]);
    await page.close();
  }, 120_000);
});
