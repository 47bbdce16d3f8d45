import { Address, beginCell, Cell, external, internal as internalMessage, SendMode, storeMessage, toNano } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { internal, TonClient, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { randomBytes } from 'node:crypto';
import { rpc, startLocalStack, type LocalStack } from '../helpers/localStack';
import { deployFromWallet, transferFromWallet } from '../helpers/walletActions';

/**
 * The local chain's developer controls end to end: a server started as `npm start` starts it
 * (manual mining: --block-interval 0), the controls called over HTTP, and every effect checked
 * through the v2 API with unmodified TonClient, i.e. through the pool, the head tracker and the
 * response cache, over the real lite-server protocol.
 */

type Json = Record<string, unknown>;

/**
 * A contract whose every get-method answers NOW: hand-assembled TVM `DROP NOW` (0x30 0xF823).
 * DROP removes the method id, NOW pushes the unix time the TVM runs at. Internal messages run
 * through it harmlessly.
 */
const NOW_CODE = beginCell().storeBuffer(Buffer.from('30f823', 'hex')).endCell();

async function control(stack: LocalStack, path: string, body?: Json): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${stack.url}/localnet/${path}`, {
    method: body === undefined && (path === 'status' || path === 'global.config.json') ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

async function controlResult<T>(stack: LocalStack, path: string, body?: Json): Promise<T> {
  const res = await control(stack, path, body);
  if (res.status !== 200 || res.body['ok'] !== true) throw new Error(`/localnet/${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body['result'] as T;
}

async function api<T>(stack: LocalStack, method: string, params: Json = {}): Promise<T> {
  const res = await rpc(stack, method, params);
  if (res.status !== 200) throw new Error(`${method}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body['result'] as T;
}

async function headSeqno(stack: LocalStack): Promise<number> {
  return (await api<{ last: { seqno: number } }>(stack, 'getMasterchainInfo')).last.seqno;
}

async function balanceOf(stack: LocalStack, address: Address, seqno?: number): Promise<bigint> {
  return BigInt(await api<string>(stack, 'getAddressBalance', { address: address.toRawString(), ...(seqno ? { seqno } : {}) }));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('/localnet controls on a running server (manual mining)', () => {
  let stack: LocalStack;
  let client: TonClient;

  beforeAll(async () => {
    stack = await startLocalStack(['--block-interval', '0']);
    client = new TonClient({ endpoint: `${stack.api}/jsonRPC` });
  }, 60000);

  afterAll(async () => {
    await stack?.stop();
  });

  test('mine seals exactly one block round, and nothing else seals with --block-interval 0', async () => {
    const before = await headSeqno(stack);
    const shardsBefore = await api<{ shards: { seqno: number }[] }>(stack, 'getShards', { seqno: before });
    const mined = await controlResult<{ seqno: number; utime: number }>(stack, 'mine');
    expect(mined.seqno).toBe(before + 1);
    // The answer comes once the API's head moved: the next read sees the new block.
    expect(await headSeqno(stack)).toBe(before + 1);
    const shardsAfter = await api<{ shards: { seqno: number }[] }>(stack, 'getShards', { seqno: before + 1 });
    expect(shardsAfter.shards.map((s) => s.seqno)).toEqual(shardsBefore.shards.map((s) => s.seqno + 1));
    await sleep(2500);
    expect(await headSeqno(stack)).toBe(before + 1);
    const status = await controlResult<{ seqno: number; block_interval_ms: number }>(stack, 'status');
    expect(status).toMatchObject({ seqno: before + 1, block_interval_ms: 0 });
  });

  test('fund an undeployed address, then deploy a v5r1 wallet from its balance and send with it', async () => {
    const keyPair = keyPairFromSeed(randomBytes(32));
    const wallet = WalletContractV5R1.create({ publicKey: keyPair.publicKey });
    expect(await client.getContractState(wallet.address)).toMatchObject({ state: 'uninitialized', balance: 0n });

    const funded = await controlResult<{
      address: string;
      amount: string;
      seqno: number;
      transaction_id: { lt: string; hash: string };
      source: string;
    }>(stack, 'fund', { address: wallet.address.toString({ bounceable: false }), amount: toNano('3').toString() });
    expect(funded.address).toBe(wallet.address.toRawString());
    expect(funded.amount).toBe('3000000000');
    expect(await headSeqno(stack)).toBe(funded.seqno);
    // The credit is a real transaction of the address, in a sealed block, as the API lists it.
    const txs = await client.getTransactions(wallet.address, { limit: 5 });
    expect(txs).toHaveLength(1);
    expect(txs[0]!.lt.toString()).toBe(funded.transaction_id.lt);
    expect(txs[0]!.hash().toString('base64')).toBe(funded.transaction_id.hash);
    expect(txs[0]!.inMessage?.info.src?.toString()).toBe(Address.parse(funded.source).toString());
    expect(await client.getContractState(wallet.address)).toMatchObject({ state: 'uninitialized', balance: toNano('3') });

    // TonClient sends the StateInit itself since the wallet is not deployed yet.
    const opened = client.open(wallet);
    const receiver = new Address(0, randomBytes(32));
    await opened.sendTransfer({
      seqno: 0,
      secretKey: keyPair.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: receiver, value: toNano('1'), bounce: false })],
    });
    expect((await client.getContractState(wallet.address)).state).toBe('active');
    expect(await opened.getSeqno()).toBe(1);
    expect(await balanceOf(stack, receiver)).toBe(toNano('1'));
    expect(await balanceOf(stack, wallet.address)).toBeLessThan(toNano('2'));
  });

  test('time travel: later blocks, NOW in get-methods and in transactions follow the chain clock', async () => {
    const keyPair = stack.localnet.wallets.keyPair;
    const snapshot = await controlResult<{ id: string }>(stack, 'snapshot');
    const [nowContract] = await deployFromWallet(client, keyPair, [{ code: NOW_CODE, data: Cell.EMPTY }], toNano('0.1'));
    const before = (await client.runMethod(nowContract!, 'now')).stack.readNumber();
    const head = await api<{ last: { seqno: number } }>(stack, 'getMasterchainInfo');
    const header = await api<{ gen_utime: number }>(stack, 'getBlockHeader', {
      workchain: -1,
      shard: '-9223372036854775808',
      seqno: head.last.seqno,
    });
    // A get-method runs at its block's gen_utime.
    expect(before).toBe(header.gen_utime);

    const day = 86_400;
    const moved = await controlResult<{ now: number; clock_offset: number }>(stack, 'time', { increase: day });
    expect(moved.clock_offset).toBeGreaterThanOrEqual(day);
    expect(moved.now).toBeGreaterThanOrEqual(before + day);
    const mined = await controlResult<{ seqno: number; utime: number }>(stack, 'mine');
    expect(mined.utime).toBeGreaterThanOrEqual(before + day);
    const after = (await client.runMethod(nowContract!, 'now')).stack.readNumber();
    expect(after).toBe(mined.utime);
    expect(after - before).toBeGreaterThanOrEqual(day);

    // set: an absolute time later still; going back is refused.
    const target = mined.utime + 3600;
    expect((await controlResult<{ now: number }>(stack, 'time', { set: target })).now).toBe(target);
    const back = await control(stack, 'time', { set: target - 10 });
    expect(back.status).toBe(422);
    expect(back.body).toMatchObject({
      ok: false,
      code: 422,
      error: `failed to validate request: set ${target - 10} is before the chain's time ${target}: the chain clock only moves forward`,
    });

    // In transactions: a v4r2 wallet compares valid_until with NOW. A message signed with the wall
    // clock's default (now + 60 s, what TonClient sends) is expired on this chain; one signed
    // against the chain clock is accepted.
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: keyPair.publicKey });
    const seqno = await client.open(wallet).getSeqno();
    const transfer = (timeout?: number) =>
      beginCell()
        .store(
          storeMessage(
            external({
              to: wallet.address,
              body: wallet.createTransfer({
                seqno,
                secretKey: keyPair.secretKey,
                sendMode: SendMode.PAY_GAS_SEPARATELY,
                messages: [internalMessage({ to: nowContract!, value: toNano('0.01'), bounce: false })],
                ...(timeout ? { timeout } : {}),
              }),
            }),
          ),
        )
        .endCell()
        .toBoc()
        .toString('base64');
    const expired = await rpc(stack, 'sendBoc', { boc: transfer() });
    expect(expired.body['ok']).toBe(false);
    expect(String(expired.body['error'])).toMatch(/exit code 36|cannot apply external message/);
    const fresh = await rpc(stack, 'sendBoc', { boc: transfer(target + 60) });
    expect(fresh.body['ok']).toBe(true);
    const lastTx = (await client.getTransactions(nowContract!, { limit: 1 }))[0]!;
    expect(lastTx.now).toBeGreaterThanOrEqual(target);

    // Restoring the snapshot taken before the jump undoes it: the clock is the wall clock again.
    await controlResult(stack, 'restore', { id: snapshot.id });
    const status = await controlResult<{ now: number; clock_offset: number }>(stack, 'status');
    expect(status.clock_offset).toBe(0);
    expect(Math.abs(status.now - Math.floor(Date.now() / 1000))).toBeLessThanOrEqual(5);
  }, 60000);

  test('snapshot, transfer, restore: the transfer is gone and the API answers the restored state', async () => {
    const keyPair = stack.localnet.wallets.keyPair;
    const sender = WalletContractV4.create({ workchain: 0, publicKey: keyPair.publicKey }).address;
    const receiver = new Address(0, randomBytes(32));
    const snap = await controlResult<{ id: string; seqno: number }>(stack, 'snapshot');
    expect(await headSeqno(stack)).toBe(snap.seqno);
    const senderBalance = await balanceOf(stack, sender);
    const senderSeqno = await client.open(WalletContractV4.create({ workchain: 0, publicKey: keyPair.publicKey })).getSeqno();

    await transferFromWallet(client, keyPair, [internal({ to: receiver, value: toNano('2'), bounce: false })]);
    const changedHead = await headSeqno(stack);
    expect(changedHead).toBeGreaterThan(snap.seqno);
    // Cached by the API at the blocks that now hold the transfer.
    expect(await balanceOf(stack, receiver)).toBe(toNano('2'));
    expect(await balanceOf(stack, receiver, snap.seqno + 1)).toBe(toNano('2'));
    expect(await balanceOf(stack, sender)).toBeLessThan(senderBalance);

    const restored = await controlResult<{ id: string; seqno: number }>(stack, 'restore', { id: snap.id });
    expect(restored).toMatchObject({ id: snap.id, seqno: snap.seqno });
    // The API's head went back with the chain at once: no stale head, no stale cached answer.
    expect(await headSeqno(stack)).toBe(snap.seqno);
    expect(await balanceOf(stack, receiver)).toBe(0n);
    expect(await balanceOf(stack, sender)).toBe(senderBalance);
    expect(await client.open(WalletContractV4.create({ workchain: 0, publicKey: keyPair.publicKey })).getSeqno()).toBe(senderSeqno);
    expect(await client.getTransactions(receiver, { limit: 5 })).toHaveLength(0);
    const gone = await rpc(stack, 'getBlockHeader', { workchain: -1, shard: '-9223372036854775808', seqno: changedHead });
    expect(gone.status).not.toBe(200);

    // The seqno after the snapshot now names another block: answers for it are the new block's,
    // not the cached answer of the forgotten one (the cache is keyed by root hash).
    await controlResult(stack, 'mine');
    expect(await balanceOf(stack, receiver, snap.seqno + 1)).toBe(0n);

    // The same snapshot can be restored again, and the chain goes on from it.
    await controlResult(stack, 'restore', { id: snap.id });
    expect(await headSeqno(stack)).toBe(snap.seqno);
    await transferFromWallet(client, keyPair, [internal({ to: receiver, value: toNano('1'), bounce: false })]);
    expect(await balanceOf(stack, receiver)).toBe(toNano('1'));
  }, 60000);

  test('status and global config describe the running chain', async () => {
    const status = await controlResult<{
      seqno: number;
      shards: { workchain: number; shard: string; seqno: number }[];
      accounts: number;
      treasury: { address: string; balance: string };
      snapshots: { id: string }[];
      max_snapshots: number;
    }>(stack, 'status');
    expect(status.seqno).toBe(await headSeqno(stack));
    const shards = await api<{ shards: { shard: string; seqno: number }[] }>(stack, 'getShards', { seqno: status.seqno });
    expect(status.shards.map((s) => [s.shard, s.seqno])).toEqual(shards.shards.map((s) => [s.shard, s.seqno]));
    expect(status.accounts).toBe(stack.localnet.chain.accountCount(0) + stack.localnet.chain.accountCount(-1));
    expect(BigInt(status.treasury.balance)).toBe(await balanceOf(stack, Address.parse(status.treasury.address)));
    expect(status.snapshots.length).toBeGreaterThanOrEqual(2);

    const res = await fetch(`${stack.url}/localnet/global.config.json`);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const text = await res.text();
    expect(text.trim()).toBe(stack.localnet.globalConfigJson);
    const config = JSON.parse(text) as { liteservers: { port: number; id: { key: string } }[] };
    expect(config.liteservers[0]).toMatchObject({ port: stack.localnet.port, id: { key: stack.localnet.publicKey.toString('base64') } });
  });

  test('snapshots are bounded: the oldest is forgotten (404 on restore)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 17; i++) ids.push((await controlResult<{ id: string }>(stack, 'snapshot')).id);
    const status = await controlResult<{ snapshots: { id: string }[]; max_snapshots: number }>(stack, 'status');
    expect(status.snapshots).toHaveLength(status.max_snapshots);
    expect(status.snapshots.map((s) => s.id)).not.toContain(ids[0]);
    const missing = await control(stack, 'restore', { id: ids[0] });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ ok: false, code: 404, error: expect.stringMatching(new RegExp(`^no snapshot with id '${ids[0]}' \\(ids kept: `)) });
    expect((await control(stack, 'restore', { id: ids[16] })).status).toBe(200);
  });
});
