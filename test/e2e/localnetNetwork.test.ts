import { Address, Cell, Dictionary, internal, toNano } from '@ton/core';
import { parseFullConfig, TonClient } from '@ton/ton';
import TonWeb from 'tonweb';
import { rpc, startLocalStack, type LocalStack } from '../helpers/localStack';
import { transferFromWallet } from '../helpers/walletActions';

/**
 * The local chain as a TON network, seen through unmodified TonClient and tonweb: the config contract and
 * the elector, tick-tock in every masterchain block, and a transfer across basechain shards.
 */

type Json = Record<string, unknown>;

const CONFIG = Address.parse('-1:' + '5'.repeat(64));
const ELECTOR = Address.parse('-1:' + '3'.repeat(64));
const FULL_SHARD = '-9223372036854775808';

async function result<T>(stack: LocalStack, method: string, params: Json): Promise<T> {
  const res = await rpc(stack, method, params);
  if (res.status !== 200) throw new Error(`${method}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body['result'] as T;
}

interface ShortTx {
  account: string;
  lt: string;
  hash: string;
}

async function blockAccounts(stack: LocalStack, id: { workchain: number; shard: string; seqno: number }): Promise<string[]> {
  const list = await result<{ transactions: ShortTx[] }>(stack, 'getBlockTransactions', { ...id, count: 100 });
  return list.transactions.map((t) => t.account);
}

describe('the local chain as a TON network, through TonClient and tonweb', () => {
  let stack: LocalStack;
  let client: TonClient;

  beforeAll(async () => {
    stack = await startLocalStack(['--shards', '4']);
    client = new TonClient({ endpoint: `${stack.api}/jsonRPC` });
  }, 60000);

  afterAll(async () => {
    await stack?.stop();
  });

  test('the config contract: deployed, seqno runs, its first data reference is getConfigAll', async () => {
    expect(await client.isContractDeployed(CONFIG)).toBe(true);
    expect(await client.isContractDeployed(ELECTOR)).toBe(true);
    const seqno = await client.runMethod(CONFIG, 'seqno');
    expect(seqno.stack.readNumber()).toBe(0);
    const key = await client.runMethod(CONFIG, 'get_public_key');
    expect(key.stack.readBigNumber()).toBe(BigInt('0x' + stack.localnet.chain.validator.publicKey.toString('hex')));

    const state = await client.getContractState(CONFIG);
    const data = Cell.fromBoc(state.data!)[0];
    const fromContract = data.refs[0];
    const all = await result<{ config: { bytes: string } }>(stack, 'getConfigAll', {});
    const fromApi = Cell.fromBoc(Buffer.from(all.config.bytes, 'base64'))[0];
    expect(fromContract.hash().equals(fromApi.hash())).toBe(true);
    const slices = (root: Cell) =>
      new Map([...Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), root)].map(([k, v]) => [k, v.beginParse()]));
    const parsed = parseFullConfig(slices(fromContract));
    // Dictionaries carry their (per-instance) codecs: compare what they hold.
    const plain = (value: unknown) =>
      JSON.stringify(value, (_, v: unknown) =>
        typeof v === 'bigint' ? v.toString() : v instanceof Dictionary ? [...v] : Address.isAddress(v) ? v.toRawString() : v,
      );
    expect(plain(parsed)).toBe(plain(parseFullConfig(slices(fromApi))));
    expect(parsed.validatorSets.currentValidators?.total).toBe(1);
    expect(parsed.configAddress.equals(CONFIG)).toBe(true);
    expect(parsed.electorAddress.equals(ELECTOR)).toBe(true);
  });

  test('tonweb sees both system contracts deployed, with transactions, and runs their get-methods', async () => {
    const provider = new TonWeb.HttpProvider(`${stack.api}/jsonRPC`);
    for (const address of [CONFIG, ELECTOR]) {
      const info = (await provider.getAddressInfo(address.toString())) as Json;
      expect(info['state']).toBe('active');
      const txs = (await provider.getTransactions(address.toString(), 5)) as Json[];
      expect(txs.length).toBeGreaterThan(0);
    }
    expect(String(await provider.call2(CONFIG.toString(), 'seqno'))).toBe('0');
    expect(String(await provider.call2(ELECTOR.toString(), 'active_election_id'))).toBe('0');
    // Config param 0 names the config contract, as tonweb reads it.
    // (getConfigParam is in tonweb's provider but not in its type declarations.)
    const withConfig = provider as unknown as { getConfigParam(id: number): Promise<{ bits: { array: Uint8Array } }> };
    const param0 = await withConfig.getConfigParam(0);
    expect(Buffer.from(param0.bits.array.slice(0, 32)).toString('hex')).toBe('5'.repeat(64));
  });

  test('the elector answers as with no election running', async () => {
    expect((await client.runMethod(ELECTOR, 'active_election_id')).stack.readNumber()).toBe(0);
    const list = await client.runMethod(ELECTOR, 'participant_list');
    expect(list.stack.remaining).toBe(1);
    const stake = await client.runMethod(ELECTOR, 'compute_returned_stake', [{ type: 'int', value: 1n }]);
    expect(stake.stack.readNumber()).toBe(0);
  });

  test('every masterchain block has the elector tick and the config tock; getShards lists 4 shards', async () => {
    const info = await result<{ last: { seqno: number } }>(stack, 'getMasterchainInfo', {});
    for (let seqno = 1; seqno <= info.last.seqno; seqno++) {
      const accounts = await blockAccounts(stack, { workchain: -1, shard: FULL_SHARD, seqno });
      expect(accounts).toContain(ELECTOR.toRawString());
      expect(accounts).toContain(CONFIG.toRawString());
    }
    const shards = await result<{ shards: { shard: string; seqno: number }[] }>(stack, 'getShards', { seqno: info.last.seqno });
    expect(shards.shards.map((s) => BigInt.asUintN(64, BigInt(s.shard)))).toEqual(stack.localnet.chain.shards);
    expect(shards.shards).toHaveLength(4);
  });

  test('a transfer to an account of another shard lands there, is found by tryLocate*, and shows in both shards', async () => {
    const sender = stack.localnet.wallets.wallets[0].address;
    // The receiver's first address bit differs from the sender's: another shard for any N > 1.
    const hash = Buffer.alloc(32, 0x11);
    hash[0] = (sender.hash[0] ^ 0x80) & 0xff;
    const receiver = new Address(0, hash);
    await transferFromWallet(client, stack.localnet.wallets.keyPair, [internal({ to: receiver, value: toNano('3'), bounce: false })]);

    const [sent] = await client.getTransactions(sender, { limit: 1 });
    const out = sent.outMessages.get(0)!;
    expect(out.info.type).toBe('internal');
    if (out.info.type !== 'internal') return;
    const received = await client.tryLocateResultTx(sender, receiver, out.info.createdLt.toString());
    expect(received.inMessage?.info.src?.toString()).toBe(sender.toString());
    const source = await client.tryLocateSourceTx(sender, receiver, out.info.createdLt.toString());
    expect(source.hash().equals(sent.hash())).toBe(true);
    expect(await client.getBalance(receiver)).toBeGreaterThan(toNano('2.9'));

    // Each side in its own shard's block, both listed by getBlockTransactions.
    const chain = stack.localnet.chain;
    const senderTx = chain.store.findTransaction(0, sender.hash, sent.lt)!;
    const receiverTx = chain.store.findTransaction(0, receiver.hash, received.lt)!;
    expect(senderTx.block.shard).not.toBe(receiverTx.block.shard);
    for (const [tx, account] of [
      [senderTx, sender],
      [receiverTx, receiver],
    ] as const) {
      const id = { workchain: 0, shard: BigInt.asIntN(64, tx.block.shard).toString(), seqno: tx.block.seqno };
      expect(await blockAccounts(stack, id)).toContain(account.toRawString());
    }
  });
});
