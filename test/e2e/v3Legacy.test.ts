import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Address, beginCell, Cell, external, loadTransaction, storeMessage, toNano } from '@ton/core';
import { internal, TonClient, WalletContractV4 } from '@ton/ton';
import { fixedAnswerInit } from '../helpers/fixedAnswerContract';
import { nextBlock, rpc, startLocalStack, type LocalStack } from '../helpers/localStack';
import { deployFromWallet } from '../helpers/walletActions';

/**
 * toncenter v3's legacy endpoints on the local chain, answered from our own v2 handler table:
 * shapes, aliases, errors, keys and limits.
 */

type Json = Record<string, unknown>;

const KEY = 'v3-key-000000000000000000001';
const SLOW_KEY = 'v3-slow-key-0000000000000001';
const ZERO_HASH = Buffer.alloc(32).toString('base64');

interface Answer {
  status: number;
  headers: Headers;
  body: Json;
}

/** TEP-467 normalization of an inbound external message, computed here independently. */
function normalizedHash(message: Cell): Buffer {
  const slice = message.beginParse();
  slice.loadUint(2);
  slice.loadAddressAny();
  const dest = slice.loadAddress();
  slice.loadCoins();
  if (slice.loadBit()) throw new Error('test messages carry no StateInit');
  const body = slice.loadBit() ? slice.loadRef() : slice.asCell();
  return beginCell()
    .storeUint(2, 2)
    .storeUint(0, 2)
    .storeAddress(dest)
    .storeCoins(0)
    .storeBit(0)
    .storeBit(1)
    .storeRef(body)
    .endCell()
    .hash();
}

describe('v3 legacy endpoints', () => {
  let stack: LocalStack;
  let client: TonClient;
  let contract: Address;
  const walletContract = () => WalletContractV4.create({ workchain: 0, publicKey: stack.localnet.wallets.keyPair.publicKey });

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ton-bridge-v3-'));
    const keysFile = path.join(dir, 'keys.yaml');
    writeFileSync(
      keysFile,
      `keys:\n  - name: main\n    key: ${KEY}\n    rps: 0\n    networks: [local]\n  - name: slow\n    key: ${SLOW_KEY}\n    rps: 0.01\n    burst: 2\n    networks: [local]\n`,
    );
    stack = await startLocalStack(['--keys-file', keysFile, '--body-limit', '4kb']);
    client = new TonClient({ endpoint: `${stack.api}/jsonRPC` });
    [contract] = await deployFromWallet(client, stack.localnet.wallets.keyPair, [fixedAnswerInit(32, beginCell().endCell())]);
  }, 60000);

  afterAll(async () => {
    await stack?.stop();
  });

  async function v3(method: 'GET' | 'POST', pathAndQuery: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const res = await fetch(`${stack.url}/api/v3/${pathAndQuery}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
  }

  async function v2Result(method: string, params: Json): Promise<Json> {
    const res = await rpc(stack, method, params);
    if (res.status !== 200) throw new Error(`${method}: ${JSON.stringify(res.body)}`);
    return res.body['result'] as Json;
  }

  async function signedTransfer(comment: string): Promise<{ message: Cell; body: Cell }> {
    const seqno = await client.open(walletContract()).getSeqno();
    const body = walletContract().createTransfer({
      seqno,
      secretKey: stack.localnet.wallets.keyPair.secretKey,
      messages: [internal({ to: stack.localnet.wallets.wallets[1].address, value: toNano('0.05'), body: comment })],
    });
    return {
      message: beginCell()
        .store(storeMessage(external({ to: walletContract().address, body })))
        .endCell(),
      body,
    };
  }

  test.each(['addressInformation', 'account'])('GET /api/v3/%s: the v2 account in the indexer shape', async (name) => {
    const address = walletContract().address;
    const res = await v3('GET', `${name}?address=${address.toString()}`);
    expect(res.status).toBe(200);
    const v2 = await v2Result('getAddressInformation', { address: address.toString() });
    const lastTx = v2['last_transaction_id'] as { lt: string; hash: string };
    expect(Object.keys(res.body)).toEqual([
      'balance',
      'code',
      'data',
      'last_transaction_lt',
      'last_transaction_hash',
      'frozen_hash',
      'status',
    ]);
    expect(res.body).toMatchObject({ code: v2['code'], data: v2['data'], frozen_hash: null, status: 'active' });
    expect(typeof res.body['balance']).toBe('string');
    expect(BigInt(res.body['last_transaction_lt'] as string)).toBeLessThanOrEqual(BigInt(lastTx.lt));
    expect(
      Cell.fromBase64(res.body['code'] as string)
        .hash()
        .equals(walletContract().init.code.hash()),
    ).toBe(true);
  });

  test('addressInformation of a never-used account, use_v2 status words, required and bad address', async () => {
    const never = new Address(0, Buffer.alloc(32, 0x31)).toString();
    const res = await v3('GET', `addressInformation?address=${never}`);
    expect(res).toMatchObject({
      status: 200,
      body: {
        balance: '0',
        code: null,
        data: null,
        last_transaction_lt: '0',
        last_transaction_hash: ZERO_HASH,
        frozen_hash: null,
        status: 'uninit',
      },
    });
    expect((await v3('GET', `addressInformation?address=${never}&use_v2=true`)).body['status']).toBe('uninitialized');
    expect((await v3('GET', `addressInformation?address=${never}&use_v2=maybe`)).body).toEqual({
      error: "failed to parse use_v2: 'maybe'",
    });
    expect(await v3('GET', 'addressInformation')).toMatchObject({
      status: 401,
      body: { error: 'address of account is required' },
    });
    const bad = await v3('GET', 'account?address=nonsense');
    expect(bad.status).toBe(422);
    // ton-index-go's runtime error body: `error` alone (IndexError.Code is `json:"-"`).
    expect(Object.keys(bad.body)).toEqual(['error']);
  });

  test.each(['walletInformation', 'wallet'])('GET /api/v3/%s: a v4 wallet; never used; 409 for a contract', async (name) => {
    const address = walletContract().address.toString();
    const res = await v3('GET', `${name}?address=${address}`);
    const seqno = await client.open(walletContract()).getSeqno();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([
      'balance',
      'wallet_type',
      'seqno',
      'wallet_id',
      'last_transaction_lt',
      'last_transaction_hash',
      'status',
    ]);
    expect(res.body).toMatchObject({ wallet_type: 'wallet v4 r2', seqno, wallet_id: walletContract().walletId, status: 'active' });
    const never = await v3('GET', `${name}?address=${new Address(0, Buffer.alloc(32, 0x32)).toString()}`);
    expect(never.body).toEqual({ balance: '0', last_transaction_lt: '0', last_transaction_hash: ZERO_HASH, status: 'uninit' });
    expect(await v3('GET', `${name}?address=${contract.toString()}`)).toMatchObject({
      status: 409,
      body: { error: 'not a wallet' },
    });
    expect((await v3('GET', name)).body).toEqual({ error: 'address of account is required' });
  });

  test('POST /api/v3/message: hashes of the message; it lands, and message_hash_norm finds its transaction', async () => {
    const { message } = await signedTransfer('sent through v3');
    const res = await v3('POST', 'message', { boc: message.toBoc().toString('base64') });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message_hash: message.hash().toString('base64'),
      message_hash_norm: normalizedHash(message).toString('base64'),
    });
    // Answered before its block, as on a network: the transaction is in the next one.
    await nextBlock(stack);

    // Find the transaction by the normalized hash: the external in-message of each of the
    // wallet's transactions, normalized, against message_hash_norm.
    const items = (await v2Result('getTransactions', { address: walletContract().address.toString(), limit: 5 })) as unknown as Json[];
    const found = items.filter((item) => {
      const tx = loadTransaction(Cell.fromBase64(item['data'] as string).beginParse());
      if (!tx.inMessage || tx.inMessage.info.type !== 'external-in') return false;
      const inCell = beginCell().store(storeMessage(tx.inMessage)).endCell();
      return normalizedHash(inCell).toString('base64') === res.body['message_hash_norm'];
    });
    expect(found).toHaveLength(1);
    expect((found[0]['in_msg'] as Json)['hash']).toBe(res.body['message_hash']);
    expect(((found[0]['out_msgs'] as Json[])[0] as Json)['message']).toBe('sent through v3');

    // The same message again: the lite server's refusal, its code kept, in the v3 error shape.
    const again = await v3('POST', 'message', { boc: message.toBoc().toString('base64') });
    expect(again.status).toBe(500);
    expect(Object.keys(again.body)).toEqual(['error']);
    expect(await v3('POST', 'message', {})).toMatchObject({ status: 401, body: { error: 'boc is required' } });
    expect((await v3('POST', 'message', { boc: 'not base64!' })).status).toBe(422);
    expect((await v3('POST', 'message', '{"boc": ')).body).toEqual({ error: 'failed to parse post request: the body is not valid JSON' });
    expect(await v3('GET', 'message')).toMatchObject({ status: 405, body: { error: 'Method Not Allowed' } });
  });

  test('POST /api/v3/runGetMethod: {type, value} stack in and out, numbers in hex', async () => {
    const address = walletContract().address.toString();
    const seqno = await client.open(walletContract()).getSeqno();
    const res = await v3('POST', 'runGetMethod', { address, method: 'seqno', stack: [] });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['gas_used', 'exit_code', 'stack']);
    expect(res.body).toMatchObject({ exit_code: 0, stack: [{ type: 'num', value: `0x${seqno.toString(16)}` }] });
    expect(res.body['gas_used']).toBeGreaterThan(0);
    const plugins = await v3('POST', 'runGetMethod', { address, method: 'get_plugin_list', stack: [] });
    expect(plugins.body['stack']).toEqual([{ type: 'list', value: [] }]);
    const installed = await v3('POST', 'runGetMethod', {
      address,
      method: 'is_plugin_installed',
      stack: [
        { type: 'num', value: '0' },
        { type: 'num', value: '0x' + 'ab'.repeat(32) },
      ],
    });
    expect(installed.body).toMatchObject({ exit_code: 0, stack: [{ type: 'num', value: '0x0' }] });
    // v2 runGetMethod takes the same {type, value} entries.
    const v2 = await v2Result('runGetMethod', {
      address,
      method: 'is_plugin_installed',
      stack: [{ type: 'num', value: '0' }, ['num', '0x1']],
    });
    expect(v2['exit_code']).toBe(0);

    expect((await v3('POST', 'runGetMethod', { method: 'seqno' })).body).toEqual({ error: 'address is required' });
    expect((await v3('POST', 'runGetMethod', { address })).body).toEqual({ error: 'method is required' });
    expect((await v3('POST', 'runGetMethod', { address, method: 'seqno', stack: [{ type: 'tuple', value: [] }] })).body).toEqual({
      error: 'unsupported stack parameter type: tuple',
    });
  });

  test('POST /api/v3/estimateFee: the v2 fees without tags, ignore_chksig false unless given', async () => {
    const { body } = await signedTransfer('fee check');
    const address = walletContract().address.toString();
    const request = { address, body: body.toBoc().toString('base64') };
    const res = await v3('POST', 'estimateFee', request);
    expect(res.status).toBe(200);
    const v2 = await v2Result('estimateFee', { ...request, ignore_chksig: false });
    const fees: Record<string, unknown> = { ...(v2['source_fees'] as Json) };
    delete fees['@type'];
    // The storage fee grows with the seconds since the account last paid, counted to the head's
    // time: a block sealed between the two calls (likely on a loaded machine) adds a nanoton or
    // two to the later (v2) one. Every other fee must be equal.
    const v3Fees = (res.body as { source_fees: Record<string, number> }).source_fees;
    const storageGrowth = (fees['storage_fee'] as number) - v3Fees['storage_fee']!;
    expect(storageGrowth).toBeGreaterThanOrEqual(0);
    expect(storageGrowth).toBeLessThanOrEqual(10);
    expect(res.body).toEqual({ source_fees: { ...fees, storage_fee: v3Fees['storage_fee'] }, destination_fees: [] });
    expect(Object.values(fees).every((value) => typeof value === 'number')).toBe(true);
    expect((fees as { gas_fee: number }).gas_fee).toBeGreaterThan(0);
    expect((await v3('POST', 'estimateFee', { body: request.body })).status).toBe(422);
  });

  test('keys: header or api_key, unknown keys 401, a key over its limit 429 with Retry-After, body limit 413', async () => {
    const address = walletContract().address.toString();
    expect((await v3('GET', `account?address=${address}`, undefined, { 'X-API-Key': KEY })).status).toBe(200);
    expect((await v3('GET', `account?address=${address}&api_key=${KEY}`)).status).toBe(200);
    const unknown = await v3('GET', `account?address=${address}`, undefined, { 'X-API-Key': 'unknown-key-0000000000000001' });
    expect(unknown).toMatchObject({ status: 401, body: { error: 'API key does not exist' } });
    expect(unknown.body['ok']).toBeUndefined();
    const statuses: number[] = [];
    let limited: Answer | undefined;
    for (let i = 0; i < 3; i++) {
      const res = await v3('POST', 'runGetMethod', { address, method: 'seqno' }, { 'X-API-Key': SLOW_KEY });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(limited?.body).toEqual({ error: 'Ratelimit exceeded' });
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited?.headers.get('ratelimit-limit')).toBe('2');
    const big = await v3('POST', 'message', { boc: 'A'.repeat(8192) }, { 'X-API-Key': KEY });
    expect(big.status).toBe(413);
    expect(Object.keys(big.body)).toEqual(['error']);
  });
});
