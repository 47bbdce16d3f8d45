import { createHash } from 'node:crypto';
import { Address, beginCell, Cell, Dictionary, external, storeMessage, toNano } from '@ton/core';
import { internal, TonClient, WalletContractV4 } from '@ton/ton';
import { createHandlerTable } from '../../src/methods';
import { cppSchemaErrors, describeWithCppSpec, RESULT_SCHEMA, SCHEMA_PATCHES } from '../helpers/cppSchema';
import { fixedAnswerInit, FIXED_ANSWER_CODE } from '../helpers/fixedAnswerContract';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { deployTokens, onchainContent, type DeployedTokens } from '../helpers/tokens';
import { callV2, CALL_MODES, type CallMode } from '../helpers/v2Calls';
import { deployFromWallet, transferFromWallet } from '../helpers/walletActions';

/**
 * Every v2 method, called GET, POST and JSON-RPC against the local chain, answers a result that
 * validates against the C++ server's own OpenAPI schema of that method's result type, with only
 * the documented additions and schema defects patched in (test/helpers/cppSchema.ts, docs/api.md
 * "Differences from ton-http-api-cpp 2.1").
 */

type Params = Record<string, string | number | boolean | readonly string[]>;

const FULL_SHARD = '-9223372036854775808';
const sha256 = (text: string) => createHash('sha256').update(text).digest();

interface Chain {
  wallet: Address;
  v5wallet: Address;
  receiver: Address;
  never: Address;
  tokens: DeployedTokens;
  dns: Address;
  library: Cell;
  mcSeqno: number;
  shardBlock: { workchain: number; shard: string; seqno: number };
  outLt: string;
}

describeWithCppSpec('every method answers the C++ 2.1 schema of its result type', () => {
  let stack: LocalStack;
  let client: TonClient;
  let chain: Chain;
  const walletContract = () => WalletContractV4.create({ workchain: 0, publicKey: stack.localnet.wallets.keyPair.publicKey });

  beforeAll(async () => {
    // Sends follow each other with the wallet's next seqno: each seals its block on arrival.
    stack = await startLocalStack(['--block-interval', '0']);
    client = new TonClient({ endpoint: `${stack.api}/jsonRPC` });
    const { keyPair, wallets } = stack.localnet.wallets;
    const tokens = await deployTokens(client, keyPair, onchainContent({ name: 'Schema Coin', symbol: 'SCH', decimals: '9' }));
    const records = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
    records.set(sha256('wallet'), beginCell().storeUint(0x9fd3, 16).storeAddress(wallets[1].address).storeUint(0, 8).endCell());
    await stack.localnet.chain.addLibrary(FIXED_ANSWER_CODE);
    const [dns] = await deployFromWallet(client, keyPair, [fixedAnswerInit(32, beginCell().storeDictDirect(records).endCell())]);
    const receiver = wallets[1].address;
    await transferFromWallet(client, keyPair, [
      internal({ to: receiver, value: toNano('0.5'), body: 'schema check' }),
      internal({ to: receiver, value: toNano('0.1'), body: beginCell().storeUint(0xdeadbeef, 32).storeUint(7, 64).endCell() }),
    ]);
    const [sent] = await client.getTransactions(wallets[0].address, { limit: 1 });
    const out = sent.outMessages.get(0)!;
    if (out.info.type !== 'internal') throw new Error('expected an internal out message');
    const block = (
      await callV2<{ seqno: number }>(stack, 'GET', 'lookupBlock', { workchain: 0, shard: FULL_SHARD, lt: sent.lt.toString() })
    ).body.result;
    const info = await client.getMasterchainInfo();
    chain = {
      wallet: wallets[0].address,
      v5wallet: wallets.find((w) => w.version === 'v5r1')!.address,
      receiver,
      never: new Address(0, Buffer.alloc(32, 0x42)),
      tokens,
      dns,
      library: FIXED_ANSWER_CODE,
      mcSeqno: info.latestSeqno,
      shardBlock: { workchain: 0, shard: FULL_SHARD, seqno: block.seqno },
      outLt: out.info.createdLt.toString(),
    };
  }, 120000);

  afterAll(async () => {
    await stack?.stop();
  });

  /** A fresh signed external message from wallet 0 (each send needs its own seqno). */
  async function signedTransfer(): Promise<{ boc: string; body: string }> {
    const contract = client.open(walletContract());
    const body = walletContract().createTransfer({
      seqno: await contract.getSeqno(),
      secretKey: stack.localnet.wallets.keyPair.secretKey,
      messages: [internal({ to: chain.receiver, value: toNano('0.01'), body: 'sent for the schema' })],
    });
    const message = beginCell()
      .store(storeMessage(external({ to: chain.wallet, body })))
      .endCell();
    return { boc: message.toBoc().toString('base64'), body: body.toBoc().toString('base64') };
  }

  interface Case {
    method: string;
    label: string;
    params: () => Params | Promise<Params>;
  }

  const cases: Case[] = [
    { method: 'detectAddress', label: 'friendly', params: () => ({ address: chain.wallet.toString() }) },
    { method: 'detectHash', label: 'hex', params: () => ({ hash: 'ab'.repeat(32) }) },
    { method: 'packAddress', label: 'raw', params: () => ({ address: chain.wallet.toRawString() }) },
    { method: 'unpackAddress', label: 'friendly', params: () => ({ address: chain.wallet.toString() }) },
    { method: 'getAddressInformation', label: 'wallet', params: () => ({ address: chain.wallet.toString() }) },
    { method: 'getAddressInformation', label: 'never used', params: () => ({ address: chain.never.toString() }) },
    { method: 'getExtendedAddressInformation', label: 'v4 wallet', params: () => ({ address: chain.wallet.toString() }) },
    { method: 'getExtendedAddressInformation', label: 'contract', params: () => ({ address: chain.tokens.minter.toString() }) },
    { method: 'getExtendedAddressInformation', label: 'never used', params: () => ({ address: chain.never.toString() }) },
    { method: 'getShardAccountCell', label: 'wallet', params: () => ({ address: chain.wallet.toString() }) },
    { method: 'getWalletInformation', label: 'v4 wallet', params: () => ({ address: chain.wallet.toString() }) },
    { method: 'getWalletInformation', label: 'v5 wallet', params: () => ({ address: chain.v5wallet.toString() }) },
    { method: 'getWalletInformation', label: 'not a wallet', params: () => ({ address: chain.tokens.minter.toString() }) },
    { method: 'getWalletInformation', label: 'never used', params: () => ({ address: chain.never.toString() }) },
    { method: 'getAddressBalance', label: 'wallet', params: () => ({ address: chain.wallet.toString() }) },
    { method: 'getAddressState', label: 'wallet', params: () => ({ address: chain.wallet.toString() }) },
    { method: 'getTokenData', label: 'jetton master', params: () => ({ address: chain.tokens.minter.toString() }) },
    { method: 'getTokenData', label: 'jetton wallet', params: () => ({ address: chain.tokens.jettonWallet.toString() }) },
    { method: 'getTokenData', label: 'nft collection', params: () => ({ address: chain.tokens.collection.toString() }) },
    { method: 'getTokenData', label: 'nft item', params: () => ({ address: chain.tokens.item.toString() }) },
    { method: 'dnsResolve', label: 'wallet record', params: () => ({ address: chain.dns.toString(), name: 'bob' }) },
    { method: 'getMasterchainInfo', label: '', params: () => ({}) },
    { method: 'getMasterchainBlockSignatures', label: '', params: () => ({ seqno: chain.mcSeqno }) },
    { method: 'getShardBlockProof', label: '', params: () => chain.shardBlock },
    { method: 'getConsensusBlock', label: '', params: () => ({}) },
    { method: 'lookupBlock', label: 'by seqno', params: () => ({ workchain: -1, shard: FULL_SHARD, seqno: chain.mcSeqno }) },
    { method: 'getShards', label: '', params: () => ({ seqno: chain.mcSeqno }) },
    { method: 'shards', label: '', params: () => ({ seqno: chain.mcSeqno }) },
    { method: 'getBlockHeader', label: '', params: () => chain.shardBlock },
    { method: 'getOutMsgQueueSize', label: '', params: () => ({}) },
    { method: 'getBlockTransactions', label: '', params: () => chain.shardBlock },
    { method: 'getBlockTransactionsExt', label: '', params: () => chain.shardBlock },
    { method: 'getTransactions', label: 'wallet', params: () => ({ address: chain.wallet.toString(), limit: 5 }) },
    { method: 'getTransactions', label: 'receiver', params: () => ({ address: chain.receiver.toString(), limit: 5 }) },
    { method: 'getTransactionsStd', label: 'wallet', params: () => ({ address: chain.wallet.toString(), limit: 5 }) },
    ...['tryLocateTx', 'tryLocateResultTx', 'tryLocateSourceTx'].map((method) => ({
      method,
      label: '',
      params: () => ({ source: chain.wallet.toString(), destination: chain.receiver.toString(), created_lt: chain.outLt }),
    })),
    { method: 'getConfigParam', label: '34', params: () => ({ config_id: 34 }) },
    { method: 'getConfigAll', label: '', params: () => ({}) },
    { method: 'getLibraries', label: '', params: () => ({ libraries: [chain.library.hash().toString('hex')] }) },
    {
      method: 'runGetMethod',
      label: 'get_jetton_data',
      params: () => ({ address: chain.tokens.minter.toString(), method: 'get_jetton_data', stack: [] as string[] }),
    },
    {
      method: 'runGetMethodStd',
      label: 'get_jetton_data',
      params: () => ({ address: chain.tokens.minter.toString(), method: 'get_jetton_data', stack: [] as string[] }),
    },
    { method: 'sendBoc', label: '', params: async () => ({ boc: (await signedTransfer()).boc }) },
    { method: 'sendBocReturnHash', label: '', params: async () => ({ boc: (await signedTransfer()).boc }) },
    { method: 'sendBocReturnHashNoError', label: '', params: async () => ({ boc: (await signedTransfer()).boc }) },
    { method: 'sendQuery', label: '', params: async () => ({ address: chain.wallet.toString(), body: (await signedTransfer()).body }) },
    { method: 'estimateFee', label: '', params: async () => ({ address: chain.wallet.toString(), body: (await signedTransfer()).body }) },
  ];

  test('every method of the table has a case and a result schema', () => {
    const covered = new Set(cases.map((c) => c.method));
    const names = createHandlerTable().names().sort();
    expect(names.filter((name) => !covered.has(name))).toEqual([]);
    expect(names.filter((name) => RESULT_SCHEMA[name] === undefined)).toEqual([]);
  });

  test('the documented patches are the ones docs/api.md lists', () => {
    expect(SCHEMA_PATCHES.map((p) => `${p.kind}: ${p.where}`)).toEqual([
      'addition: WalletInformation.extra_currencies',
      'seed: OutMsgQueueSize.id',
      'schema defect: TransactionExt (getBlockTransactionsExt items)',
    ]);
  });

  const POST_ONLY = new Set([
    'runGetMethod',
    'runGetMethodStd',
    'sendBoc',
    'sendBocReturnHash',
    'sendBocReturnHashNoError',
    'sendQuery',
    'estimateFee',
  ]);
  const rows = cases.flatMap((c) =>
    CALL_MODES.filter((mode) => !(mode === 'GET' && POST_ONLY.has(c.method))).map((mode) => [c.method, c.label, mode, c] as const),
  );

  test.each(rows)('%s %s (%s)', async (method, _label, mode: CallMode, c) => {
    const res = await callV2(stack, mode, method, await c.params());
    if (res.status !== 200) throw new Error(`${mode} ${method}: ${res.status} ${JSON.stringify(res.body)}`);
    expect(res.body.ok).toBe(true);
    expect(typeof res.body['@extra']).toBe('string');
    expect(cppSchemaErrors(RESULT_SCHEMA[method], res.body.result)).toEqual([]);
  });
});
