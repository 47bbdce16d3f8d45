import { createHash } from 'node:crypto';
import { Address, beginCell, Cell, Dictionary, loadShardAccount, toNano } from '@ton/core';
import {
  internal,
  TonClient,
  WalletContractV1R1,
  WalletContractV1R2,
  WalletContractV1R3,
  WalletContractV2R1,
  WalletContractV2R2,
  WalletContractV3R1,
  WalletContractV3R2,
  WalletContractV4,
  WalletContractV5Beta,
  WalletContractV5R1,
} from '@ton/ton';
import TonWeb from 'tonweb';
import { fixedAnswerInit, FIXED_ANSWER_CODE, libraryCellOf } from '../helpers/fixedAnswerContract';
import { rpc, startLocalStack, type LocalStack } from '../helpers/localStack';
import { deployTokens, onchainContent, type DeployedTokens } from '../helpers/tokens';
import { deployFromWallet, transferFromWallet } from '../helpers/walletActions';

type Json = Record<string, unknown>;

/** A successful call's result (fails the test with the error body otherwise). */
async function ok<T = Json>(stack: LocalStack, method: string, params: Json): Promise<T> {
  const res = await rpc(stack, method, params);
  if (res.status !== 200) throw new Error(`${method} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body['result'] as T;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

describe('accounts, get-methods, tokens and DNS on the local chain through HTTP', () => {
  let stack: LocalStack;
  let client: TonClient;
  let tokens: DeployedTokens;

  beforeAll(async () => {
    stack = await startLocalStack();
    client = new TonClient({ endpoint: `${stack.api}/jsonRPC` });
    tokens = await deployTokens(
      client,
      stack.localnet.wallets.keyPair,
      onchainContent({ name: 'Local Coin', symbol: 'LOC', decimals: '9', image_data: Buffer.from([1, 2, 3]) }),
    );
  }, 60000);

  afterAll(async () => {
    await stack?.stop();
  });

  test('getAddressInformation, getAddressBalance, getAddressState and getShardAccountCell agree with the chain', async () => {
    const wallet = stack.localnet.wallets.wallets[0];
    const address = wallet.address.toString();
    const info = await ok(stack, 'getAddressInformation', { address });
    const head = stack.localnet.chain.lastMasterchainBlock().id;
    expect(info).toMatchObject({
      '@type': 'raw.fullAccountState',
      state: 'active',
      frozen_hash: '',
      suspended: false,
      extra_currencies: [],
    });
    expect((info['block_id'] as Json)['seqno']).toBeLessThanOrEqual(head.seqno);
    const code = Cell.fromBase64(info['code'] as string);
    expect(
      code.hash().equals(WalletContractV4.create({ workchain: 0, publicKey: stack.localnet.wallets.keyPair.publicKey }).init.code.hash()),
    ).toBe(true);
    const balance = await ok<string>(stack, 'getAddressBalance', { address });
    expect(balance).toBe(info['balance']);
    expect(await ok(stack, 'getAddressState', { address })).toBe('active');

    const last = info['last_transaction_id'] as { lt: string; hash: string };
    const history = stack.localnet.chain.store.transactionsOf(0, wallet.address.hash);
    expect(last.lt).toBe(history[history.length - 1].lt.toString());
    expect(last.hash).toBe(history[history.length - 1].hash.toString('base64'));

    const cell = await ok<{ '@type': string; bytes: string }>(stack, 'getShardAccountCell', { address });
    expect(cell['@type']).toBe('tvm.cell');
    const shardAccount = loadShardAccount(Cell.fromBase64(cell.bytes).beginParse());
    expect(shardAccount.lastTransactionLt.toString()).toBe(last.lt);
    expect(shardAccount.account?.storage.balance.coins.toString()).toBe(balance);
  });

  test('an account that never existed: balance "0" (C++), uninitialized, no history, exit code -13', async () => {
    const address = new Address(0, Buffer.alloc(32, 0x42)).toString();
    const info = await ok(stack, 'getAddressInformation', { address });
    expect(info).toMatchObject({ balance: '0', code: '', data: '', state: 'uninitialized' });
    expect(info['last_transaction_id']).toEqual({ '@type': 'internal.transactionId', lt: '0', hash: Buffer.alloc(32).toString('base64') });
    expect(await ok(stack, 'getAddressBalance', { address })).toBe('0');
    expect(await ok(stack, 'getAddressState', { address })).toBe('uninitialized');
    expect(await ok(stack, 'getWalletInformation', { address })).toMatchObject({ wallet: false, account_state: 'uninitialized' });
    expect(await ok(stack, 'getTransactions', { address })).toEqual([]);
    const run = await ok(stack, 'runGetMethod', { address, method: 'seqno', stack: [] });
    expect(run).toMatchObject({ exit_code: -13, gas_used: 0, stack: [] });
  });

  test('every wallet version is recognised with its seqno and wallet id', async () => {
    const publicKey = stack.localnet.wallets.keyPair.publicKey;
    const tonweb = new TonWeb(new TonWeb.HttpProvider(`${stack.api}/jsonRPC`));
    const v4r1 = new (
      tonweb.wallet.all as unknown as Record<
        string,
        new (p: unknown, o: object) => { options: { code: { toBoc(idx: boolean): Promise<Uint8Array> } } }
      >
    )['v4R1'](tonweb.provider, { publicKey, wc: 0 });
    const v4r1Code = Cell.fromBoc(Buffer.from(await v4r1.options.code.toBoc(false)))[0];
    const v4r1Init = {
      code: v4r1Code,
      data: beginCell().storeUint(0, 32).storeUint(698983191, 32).storeBuffer(Buffer.from(publicKey)).storeBit(0).endCell(),
    };
    const contracts = [
      ['wallet v1 r1', WalletContractV1R1.create({ workchain: 0, publicKey }).init],
      ['wallet v1 r2', WalletContractV1R2.create({ workchain: 0, publicKey }).init],
      ['wallet v1 r3', WalletContractV1R3.create({ workchain: 0, publicKey }).init],
      ['wallet v2 r1', WalletContractV2R1.create({ workchain: 0, publicKey }).init],
      ['wallet v2 r2', WalletContractV2R2.create({ workchain: 0, publicKey }).init],
      ['wallet v3 r1', WalletContractV3R1.create({ workchain: 0, publicKey, walletId: 111 }).init],
      ['wallet v3 r2', WalletContractV3R2.create({ workchain: 0, publicKey, walletId: 222 }).init],
      ['wallet v4 r1', v4r1Init],
      ['wallet v4 r2', WalletContractV4.create({ workchain: 0, publicKey, walletId: 333 }).init],
      ['wallet v5 beta', WalletContractV5Beta.create({ publicKey }).init],
      [
        'wallet v5 r1',
        WalletContractV5R1.create({
          publicKey,
          walletId: { networkGlobalId: -239, context: { workchain: 0, subwalletNumber: 7, walletVersion: 'v5r1' } },
        }).init,
      ],
    ] as const;
    const addresses = await deployFromWallet(
      client,
      stack.localnet.wallets.keyPair,
      contracts.map(([, init]) => init),
    );
    for (const [i, [walletType, init]] of contracts.entries()) {
      const info = await ok(stack, 'getWalletInformation', { address: addresses[i].toString() });
      expect({ walletType, info }).toMatchObject({
        walletType,
        info: { wallet: true, wallet_type: walletType, seqno: 0, account_state: 'active' },
      });
      const data = init.data.beginParse();
      if (walletType.startsWith('wallet v3') || walletType.startsWith('wallet v4')) {
        data.skip(32);
        expect(info['wallet_id']).toBe(data.loadUint(32));
      } else if (walletType.startsWith('wallet v5')) {
        const signatureAllowed = data.loadBit();
        data.skip(32);
        expect(info['wallet_id']).toBe(data.loadUint(32));
        expect(info['is_signature_allowed']).toBe(signatureAllowed);
      } else {
        expect(info['wallet_id']).toBeUndefined();
      }
    }
    const extended = await ok(stack, 'getExtendedAddressInformation', { address: addresses[6].toString({ bounceable: false }) });
    expect(extended).toMatchObject({
      '@type': 'fullAccountState',
      address: { '@type': 'accountAddress', account_address: addresses[6].toString({ bounceable: false, urlSafe: true }) },
      account_state: { '@type': 'wallet.v3.accountState', wallet_id: 222, seqno: 0 },
      revision: 2,
    });
    // A non-wallet contract is not a wallet.
    expect(await ok(stack, 'getWalletInformation', { address: tokens.minter.toString() })).toMatchObject({
      wallet: false,
      account_state: 'active',
    });
  }, 30000);

  test('historical reads: state, balance and get-methods at an older masterchain seqno', async () => {
    const sender = stack.localnet.wallets.wallets[0].address.toString();
    const before = await ok(stack, 'getAddressInformation', { address: sender });
    const beforeSeqno = (before['block_id'] as { seqno: number }).seqno;
    const seqnoBefore = await ok<{ stack: [string, string][] }>(stack, 'runGetMethod', { address: sender, method: 'seqno', stack: [] });
    await transferFromWallet(client, stack.localnet.wallets.keyPair, [
      internal({ to: stack.localnet.wallets.wallets[1].address, value: toNano('3') }),
    ]);

    const now = await ok(stack, 'getAddressInformation', { address: sender });
    expect(BigInt(now['balance'] as string)).toBeLessThan(BigInt(before['balance'] as string) - toNano('3') + 1n);
    const then = await ok(stack, 'getAddressInformation', { address: sender, seqno: beforeSeqno });
    expect(then['balance']).toBe(before['balance']);
    expect(then['last_transaction_id']).toEqual(before['last_transaction_id']);
    expect((then['block_id'] as { seqno: number }).seqno).toBe(beforeSeqno);
    expect(await ok(stack, 'getAddressBalance', { address: sender, seqno: beforeSeqno })).toBe(before['balance']);

    const oldRun = await ok<{ stack: [string, string][]; block_id: { seqno: number } }>(stack, 'runGetMethod', {
      address: sender,
      method: 'seqno',
      stack: [],
      seqno: beforeSeqno,
    });
    expect(oldRun.stack).toEqual(seqnoBefore.stack);
    expect(oldRun.block_id.seqno).toBe(beforeSeqno);
    const newRun = await ok<{ stack: [string, string][] }>(stack, 'runGetMethod', { address: sender, method: 'seqno', stack: [] });
    expect(BigInt(newRun.stack[0][1])).toBe(BigInt(seqnoBefore.stack[0][1]) + 1n);

    // A seqno past the head is the lite server's error, a 500 as in toncenter.
    const future = await rpc(stack, 'getAddressInformation', { address: sender, seqno: 1_000_000 });
    expect(future.status).toBe(500);
    expect(future.body['error']).toMatch(/^LITE_SERVER_/);
  });

  test('getTokenData: jetton master, jetton wallet, NFT collection and item; 409 for anything else', async () => {
    const master = await ok(stack, 'getTokenData', { address: tokens.minter.toString() });
    expect(master).toMatchObject({
      '@type': 'ext.tokens.jettonMasterData',
      address: tokens.minter.toString(),
      contract_type: 'jetton_master',
      total_supply: tokens.jettonAmount.toString(),
      mintable: true,
      admin_address: tokens.owner.toString(),
      jetton_content: { type: 'onchain', data: { name: 'Local Coin', symbol: 'LOC', decimals: '9', image_data: 'AQID' } },
    });
    const wallet = await ok(stack, 'getTokenData', { address: tokens.jettonWallet.toRawString() });
    expect(wallet).toMatchObject({
      '@type': 'ext.tokens.jettonWalletData',
      address: tokens.jettonWallet.toRawString().toUpperCase(),
      contract_type: 'jetton_wallet',
      balance: tokens.jettonAmount.toString(),
      owner: tokens.owner.toString(),
      jetton: tokens.minter.toString(),
    });
    expect(wallet['jetton_wallet_code']).toBe(master['jetton_wallet_code']);
    expect(await ok(stack, 'getTokenData', { address: tokens.collection.toString() })).toEqual({
      '@type': 'ext.tokens.nftCollectionData',
      address: tokens.collection.toString(),
      contract_type: 'nft_collection',
      next_item_index: '1',
      owner_address: tokens.owner.toString(),
      collection_content: { type: 'offchain', data: tokens.collectionUri },
    });
    expect(await ok(stack, 'getTokenData', { address: tokens.item.toString() })).toEqual({
      '@type': 'ext.tokens.nftItemData',
      address: tokens.item.toString(),
      contract_type: 'nft_item',
      init: true,
      index: '0',
      collection_address: tokens.collection.toString(),
      owner_address: tokens.owner.toString(),
      content: { type: 'offchain', data: tokens.itemUri },
    });
    const notToken = await rpc(stack, 'getTokenData', { address: tokens.owner.toString() });
    expect(notToken.status).toBe(409);
    expect(notToken.body).toMatchObject({ ok: false, code: 409, error: `Smart contract ${tokens.owner.toString()} is not Jetton or NFT` });
    const nothing = await rpc(stack, 'getTokenData', { address: new Address(0, Buffer.alloc(32, 7)).toString() });
    expect(nothing.status).toBe(409);
  });

  test('dnsResolve follows next resolvers while ttl allows (each resolver answers 32 bits: "ton\\0", then "bob\\0"); a resolver whose code is a library cell runs', async () => {
    const target = stack.localnet.wallets.wallets[1].address;
    const records = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
    records.set(sha256('wallet'), beginCell().storeUint(0x9fd3, 16).storeAddress(target).storeUint(0, 8).endCell());
    records.set(sha256('storage'), beginCell().storeUint(0x7473, 16).storeBuffer(Buffer.alloc(32, 9)).endCell());
    // The root resolver's code is only a library cell: get-methods need the library fetched.
    await stack.localnet.chain.addLibrary(FIXED_ANSWER_CODE);
    await stack.localnet.chain.seal();
    const [leaf] = await deployFromWallet(client, stack.localnet.wallets.keyPair, [
      fixedAnswerInit(32, beginCell().storeDictDirect(records).endCell()),
    ]);
    const [root] = await deployFromWallet(client, stack.localnet.wallets.keyPair, [
      fixedAnswerInit(32, beginCell().storeUint(0xba93, 16).storeAddress(leaf).endCell(), libraryCellOf(FIXED_ANSWER_CODE)),
    ]);
    const rootInfo = await ok(stack, 'getAddressInformation', { address: root.toString() });
    expect(Cell.fromBase64(rootInfo['code'] as string).isExotic).toBe(true);

    const partial = await ok(stack, 'dnsResolve', { address: root.toString(), name: 'bob.ton' });
    expect(partial).toEqual({
      '@type': 'dns.resolved',
      entries: [
        {
          '@type': 'dns.entry',
          name: 'ton',
          category: sha256('dns_next_resolver').toString('base64'),
          entry: { '@type': 'dns.entryDataNextResolver', resolver: { '@type': 'accountAddress', account_address: leaf.toString() } },
        },
      ],
    });
    const full = await ok<{ entries: Json[] }>(stack, 'dnsResolve', { address: root.toString(), name: 'bob.ton', ttl: 1 });
    expect(full.entries).toHaveLength(2);
    expect(full.entries).toEqual(
      expect.arrayContaining([
        {
          '@type': 'dns.entry',
          name: 'bob',
          category: sha256('wallet').toString('base64'),
          entry: { '@type': 'dns.entryDataSmcAddress', smc_address: { '@type': 'accountAddress', account_address: target.toString() } },
        },
        {
          '@type': 'dns.entry',
          name: 'bob',
          category: sha256('storage').toString('base64'),
          entry: { '@type': 'dns.entryDataStorageAddress', bag_id: '09'.repeat(32) },
        },
      ]),
    );
    const run = await ok<{ exit_code: number; gas_used: number; stack: unknown[] }>(stack, 'runGetMethod', {
      address: root.toString(),
      method: 'dnsresolve',
      stack: [
        ['tvm.Slice', beginCell().storeBuffer(Buffer.from('ton\0', 'latin1')).endCell().toBoc().toString('base64')],
        ['num', 0],
      ],
    });
    expect(run.exit_code).toBe(0);
    expect(run.gas_used).toBeGreaterThan(0);
    expect(run.stack[0]).toEqual(['num', '0x20']);
  });
});
