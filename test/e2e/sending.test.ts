import {
  Address,
  beginCell,
  Cell,
  external,
  internal as internalMessage,
  OpenedContract,
  SendMode,
  storeMessage,
  storeMessageRelaxed,
  toNano,
} from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { internal, TonClient, WalletContractV4 } from '@ton/ton';
import { nextBlock, rpc, startLocalStack, type LocalStack } from '../helpers/localStack';
import { transferFromWallet } from '../helpers/walletActions';

/** Sending, fee estimates, long histories and every kind of bad input, through JSON-RPC and REST. */

type Json = Record<string, unknown>;

function boc(cell: Cell): string {
  return cell.toBoc().toString('base64');
}

async function post(stack: LocalStack, method: string, body: Json): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${stack.api}/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/** Destination and body of an inbound external message without StateInit. */
function partsOf(message: Cell): { dest: Address; body: Cell } {
  const slice = message.beginParse();
  slice.loadUint(2);
  slice.loadAddressAny();
  const dest = slice.loadAddress();
  slice.loadCoins();
  if (slice.loadBit()) throw new Error('test messages carry no StateInit');
  return { dest, body: slice.loadBit() ? slice.loadRef() : slice.asCell() };
}

/** TEP-467 normalization, computed here independently of the server's code. */
function normalizedHash(message: Cell): Buffer {
  const { dest, body } = partsOf(message);
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

describe('sending, fees and bad input', () => {
  let stack: LocalStack;
  let client: TonClient;
  let wallet: OpenedContract<WalletContractV4>;
  let walletContract: WalletContractV4;

  beforeAll(async () => {
    stack = await startLocalStack();
    client = new TonClient({ endpoint: `${stack.api}/jsonRPC` });
    walletContract = WalletContractV4.create({ workchain: 0, publicKey: stack.localnet.wallets.keyPair.publicKey });
    wallet = client.open(walletContract);
  }, 60000);

  afterAll(async () => {
    await stack?.stop();
  });

  async function signedTransfer(
    comment: string,
    secretKey = stack.localnet.wallets.keyPair.secretKey,
  ): Promise<{ message: Cell; seqno: number }> {
    const seqno = await client.open(walletContract).getSeqno();
    const body = walletContract.createTransfer({
      seqno,
      secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: stack.localnet.wallets.wallets[1].address, value: toNano('0.2'), body: comment })],
    });
    const message = beginCell()
      .store(storeMessage(external({ to: walletContract.address, body })))
      .endCell();
    return { message, seqno };
  }

  test('sendBocReturnHash: the message hash is the in_msg hash of the resulting transaction; hash_norm is TEP-467', async () => {
    const { message, seqno } = await signedTransfer('with hash');
    const res = await rpc(stack, 'sendBocReturnHash', { boc: boc(message) });
    expect(res.status).toBe(200);
    expect(res.body['result']).toEqual({
      '@type': 'raw.extMessageInfo',
      hash: message.hash().toString('base64'),
      hash_norm: normalizedHash(message).toString('base64'),
    });
    // Answered before its block, as on a network: the transfer is in the next one.
    await nextBlock(stack);
    expect(await client.open(walletContract).getSeqno()).toBe(seqno + 1);
    const [tx] = (await rpc(stack, 'getTransactions', { address: walletContract.address.toString(), limit: 1 })).body['result'] as Json[];
    expect((tx['in_msg'] as Json)['hash']).toBe(message.hash().toString('base64'));
  });

  test('sendBoc answers ok only for an accepted message; a rejected one is the lite server 500, never ok', async () => {
    const { message, seqno } = await signedTransfer('once');
    const first = await post(stack, 'sendBoc', { boc: boc(message) });
    expect(first).toMatchObject({ status: 200, body: { ok: true, result: { '@type': 'ok' } } });
    // The same message again: its seqno is used up, the wallet throws, the lite server refuses.
    const replay = await post(stack, 'sendBoc', { boc: boc(message) });
    expect(replay.status).toBe(500);
    expect(replay.body).toMatchObject({ ok: false, code: 500 });
    expect(replay.body['error']).toMatch(/^LITE_SERVER_UNKNOWN: cannot apply external message to current state/);

    const forged = await signedTransfer('forged', keyPairFromSeed(Buffer.alloc(32, 5)).secretKey);
    const badSignature = await rpc(stack, 'sendBoc', { boc: boc(forged.message) });
    expect(badSignature.status).toBe(500);
    expect(badSignature.body['ok']).toBe(false);
    // Only the first message landed (in the next block); the forged one changed nothing.
    await nextBlock(stack);
    expect(await client.open(walletContract).getSeqno()).toBe(seqno + 1);

    const noError = await rpc(stack, 'sendBocReturnHashNoError', { boc: boc(message) });
    expect(noError.status).toBe(400);
    expect(noError.body['error']).toMatch(/cannot apply external message/);
  });

  test('sendBoc rejects what is not one inbound external message with a 422 (sendBocReturnHashNoError: 400)', async () => {
    const internalBoc = boc(
      beginCell()
        .store(
          storeMessage({
            info: {
              type: 'internal',
              ihrDisabled: true,
              bounce: false,
              bounced: false,
              src: stack.localnet.wallets.wallets[1].address,
              dest: walletContract.address,
              value: { coins: 1n },
              ihrFee: 0n,
              forwardFee: 0n,
              createdLt: 0n,
              createdAt: 0,
            },
            body: Cell.EMPTY,
          }),
        )
        .endCell(),
    );
    const relaxedBoc = boc(
      beginCell()
        .store(storeMessageRelaxed(internalMessage({ to: walletContract.address, value: 1n, bounce: false })))
        .endCell(),
    );
    const cases: [string, RegExp][] = [
      [internalBoc, /internal message; only inbound external messages can be sent/],
      [relaxedBoc, /not a message/],
      [Buffer.from('not a bag of cells').toString('base64'), /not a valid bag of cells/],
      [Buffer.concat([Cell.EMPTY.toBoc(), Buffer.alloc(0)]).toString('base64'), /not a message/],
      [Buffer.from(new Cell().toBoc()).toString('base64').slice(0, 8), /bag of cells|base64/],
    ];
    for (const [text, error] of cases) {
      for (const method of ['sendBoc', 'sendBocReturnHash']) {
        const res = await post(stack, method, { boc: text });
        expect({ method, text, status: res.status }).toEqual({ method, text, status: 422 });
        expect(res.body['error']).toMatch(error);
      }
    }
    const empty = await post(stack, 'sendBoc', { boc: '' });
    expect(empty.status).toBe(422);
    const noError = await post(stack, 'sendBocReturnHashNoError', { boc: internalBoc });
    expect(noError.status).toBe(400);
    expect(await (await fetch(`${stack.api}/sendBoc?boc=${encodeURIComponent(internalBoc)}`)).status).toBe(405);
  });

  test('sendQuery builds the external message from address and body and sends it', async () => {
    const seqno = await wallet.getSeqno();
    const body = walletContract.createTransfer({
      seqno,
      secretKey: stack.localnet.wallets.keyPair.secretKey,
      messages: [internal({ to: stack.localnet.wallets.wallets[1].address, value: toNano('0.3') })],
    });
    const res = await rpc(stack, 'sendQuery', { address: walletContract.address.toString(), body: boc(body) });
    expect(res).toMatchObject({ status: 200, body: { ok: true, result: { '@type': 'ok' } } });
    await nextBlock(stack);
    expect(await wallet.getSeqno()).toBe(seqno + 1);
    const again = await rpc(stack, 'sendQuery', { address: walletContract.address.toString(), body: boc(body) });
    expect(again.status).toBe(500);
  });

  test('estimateFee: query.fees of integers; no gas for a message the contract refuses or an account without code', async () => {
    const transferBody = partsOf((await signedTransfer('estimate')).message).body;
    const res = await post(stack, 'estimateFee', { address: walletContract.address.toString(), body: boc(transferBody) });
    expect(res.status).toBe(200);
    const result = res.body['result'] as { source_fees: Record<string, number>; destination_fees: unknown[] };
    expect(Object.keys(result)).toEqual(['@type', 'source_fees', 'destination_fees']);
    expect(result.destination_fees).toEqual([]);
    expect(Object.keys(result.source_fees)).toEqual(['@type', 'in_fwd_fee', 'storage_fee', 'gas_fee', 'fwd_fee']);
    for (const key of ['in_fwd_fee', 'storage_fee', 'gas_fee', 'fwd_fee']) expect(Number.isInteger(result.source_fees[key])).toBe(true);
    expect(result.source_fees['gas_fee']).toBeGreaterThan(0);
    expect(result.source_fees['fwd_fee']).toBeGreaterThan(0);

    const forged = await signedTransfer('forged', keyPairFromSeed(Buffer.alloc(32, 6)).secretKey);
    const forgedBody = partsOf(forged.message).body;
    const checked = await post(stack, 'estimateFee', {
      address: walletContract.address.toString(),
      body: boc(forgedBody),
      ignore_chksig: false,
    });
    expect(checked.status).toBe(200);
    expect((checked.body['result'] as { source_fees: Json }).source_fees).toMatchObject({ gas_fee: 0, fwd_fee: 0 });
    const skipped = await post(stack, 'estimateFee', {
      address: walletContract.address.toString(),
      body: boc(forgedBody),
      ignore_chksig: true,
    });
    expect((skipped.body['result'] as { source_fees: { gas_fee: number } }).source_fees.gas_fee).toBeGreaterThan(0);

    const nobody = await post(stack, 'estimateFee', { address: new Address(0, Buffer.alloc(32, 3)).toString(), body: boc(Cell.EMPTY) });
    expect((nobody.body['result'] as { source_fees: Json }).source_fees).toMatchObject({ storage_fee: 0, gas_fee: 0, fwd_fee: 0 });
    const wrongType = await post(stack, 'estimateFee', {
      address: walletContract.address.toString(),
      body: boc(Cell.EMPTY),
      ignore_chksig: 'yes',
    });
    expect(wrongType.status).toBe(422);
  });

  test('runGetMethod bad stacks: 422 malformed, unknown entry type (C++ 542), nested too deep (C++ 533)', async () => {
    const address = walletContract.address.toString();
    let deep: unknown = { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '1' } };
    for (let i = 0; i < 300; i++) deep = { '@type': 'tvm.stackEntryTuple', tuple: { '@type': 'tvm.tuple', elements: [deep] } };
    const cases: [unknown, number, RegExp][] = [
      [[['num']], 422, /Expected 2 elements/],
      [[['num', 'twelve']], 422, /Invalid number/],
      [[['tvm.Cell', '%%%']], 422, /base64/],
      [[['tvm.Cell', Buffer.from('junk').toString('base64')]], 422, /bag of cells/],
      [['num'], 422, /stack entry/],
      [[['tvm.Builder', boc(Cell.EMPTY)]], 422, /Unsupported stack entry type: 'tvm.Builder'/],
      [[['tuple', { '@type': 'tvm.tuple', elements: [deep] }]], 422, /Result stack depth >= 256/],
    ];
    for (const [stackArg, code, error] of cases) {
      const res = await post(stack, 'runGetMethod', { address, method: 'seqno', stack: stackArg });
      expect({ stackArg, status: res.status }).toEqual({ stackArg, status: code });
      expect(res.body).toMatchObject({ ok: false, code });
      expect(res.body['error']).toMatch(error);
    }
    const std = await post(stack, 'runGetMethodStd', { address, method: 'seqno', stack: [{ '@type': 'tvm.stackEntryWeird' }] });
    expect(std.status).toBe(422);
    const notArray = await post(stack, 'runGetMethod', { address, method: 'seqno', stack: 'nope' });
    expect(notArray.status).toBe(422);
    const badId = await post(stack, 'runGetMethod', { address, method: '0x1ffffffff', stack: [] });
    expect(badId.status).toBe(422);
    const get = await fetch(`${stack.api}/runGetMethod?address=${address}&method=seqno&stack=[]`);
    expect(get.status).toBe(405);
    const byId = await post(stack, 'runGetMethod', { address, method: 85143, stack: [] });
    const byName = await post(stack, 'runGetMethod', { address, method: 'seqno', stack: [] });
    expect((byId.body['result'] as Json)['stack']).toEqual((byName.body['result'] as Json)['stack']);
  });

  test('long histories: getTransactions joins lite-server pages of 16; getTransactionsStd; limits and cursors', async () => {
    const receiver = stack.localnet.wallets.wallets[1].address;
    for (let i = 0; i < 5; i++) {
      await transferFromWallet(
        client,
        stack.localnet.wallets.keyPair,
        [0, 1, 2, 3].map((j) => internal({ to: receiver, value: toNano('0.01'), body: `batch ${i}.${j}` })),
      );
    }
    const history = stack.localnet.chain.store.transactionsOf(0, receiver.hash);
    expect(history.length).toBeGreaterThanOrEqual(21);
    const newestFirst = [...history].reverse();
    const ids = (items: Json[]) => items.map((tx) => (tx['transaction_id'] as Json)['lt']);

    const all = (await rpc(stack, 'getTransactions', { address: receiver.toString(), limit: 40 })).body['result'] as Json[];
    expect(ids(all)).toEqual(newestFirst.map((tx) => tx.lt.toString()));
    expect((all[0]['in_msg'] as Json)['message']).toBe('batch 4.3');
    const cut = (await rpc(stack, 'getTransactions', { address: receiver.toString(), limit: 19 })).body['result'] as Json[];
    expect(ids(cut)).toEqual(ids(all.slice(0, 19)));
    const from = all[2]['transaction_id'] as { lt: string; hash: string };
    const paged = await fetch(
      `${stack.api}/getTransactions?address=${receiver.toString()}&limit=17&lt=${from.lt}&hash=${Buffer.from(from.hash, 'base64').toString('hex')}&to_lt=${(all[18]['transaction_id'] as Json)['lt']}`,
    );
    expect(ids(((await paged.json()) as { result: Json[] }).result)).toEqual(ids(all.slice(2, 18)));

    const std = (await rpc(stack, 'getTransactionsStd', { address: receiver.toString(), limit: 18 })).body['result'] as Json;
    expect(std['@type']).toBe('raw.transactions');
    expect(ids(std['transactions'] as Json[])).toEqual(ids(all.slice(0, 18)));
    expect(std['previous_transaction_id']).toEqual({
      '@type': 'internal.transactionId',
      lt: newestFirst[18].lt.toString(),
      hash: newestFirst[18].hash.toString('base64'),
    });
    const stdItem = (std['transactions'] as Json[])[0];
    expect((stdItem['in_msg'] as Json)['source']).toEqual({
      '@type': 'accountAddress',
      account_address: stack.localnet.wallets.wallets[0].address.toString(),
    });
    expect(stdItem['in_msg']).not.toHaveProperty('message');

    for (const [params, status] of [
      [{ limit: 0 }, 422],
      [{ limit: 1001 }, 422],
      [{ limit: 101 }, 200],
      [{ lt: from.lt }, 422],
      [{ hash: from.hash }, 422],
      [{ lt: from.lt, hash: Buffer.alloc(32, 1).toString('base64') }, 500],
    ] as [Json, number][]) {
      const res = await rpc(stack, 'getTransactions', { address: receiver.toString(), ...params });
      expect({ params, status: res.status }).toEqual({ params, status });
    }
  });

  test('tryLocate*: 404 "transaction was not found" for a message that does not exist', async () => {
    const sender = walletContract.address.toString();
    const receiver = stack.localnet.wallets.wallets[1].address.toString();
    for (const method of ['tryLocateTx', 'tryLocateResultTx', 'tryLocateSourceTx']) {
      const res = await rpc(stack, method, { source: sender, destination: receiver, created_lt: '12345' });
      expect({ method, status: res.status, body: res.body }).toMatchObject({
        method,
        status: 404,
        body: { ok: false, code: 404, error: 'transaction was not found' },
      });
    }
    const negative = await rpc(stack, 'tryLocateTx', { source: sender, destination: receiver, created_lt: -1 });
    expect(negative.status).toBe(422);
  });
});
