import { Address, beginCell, Cell, SendMode, toNano, Transaction } from '@ton/core';
import { internal, TonClient, WalletContractV4 } from '@ton/ton';
import TonWeb from 'tonweb';
import { nextBlock, rpc, startLocalStack, type LocalStack } from '../helpers/localStack';
import { deployTokens, onchainContent, type DeployedTokens } from '../helpers/tokens';
import { transferFromWallet } from '../helpers/walletActions';

/**
 * The two JS clients wallet backends use, unmodified, against the server on the local chain:
 * @ton/ton's TonClient and tonweb's HttpProvider, both through /jsonRPC.
 */

type Json = Record<string, unknown>;

interface TonwebProvider {
  getAddressInfo(address: string): Promise<Json>;
  getWalletInfo(address: string): Promise<Json>;
  getBalance(address: string): Promise<string>;
  getTransactions(address: string, limit?: number, lt?: string, hash?: string, toLt?: string): Promise<Json[]>;
  call(address: string, method: string, stack?: unknown[]): Promise<Json>;
  call2(address: string, method: string, stack?: unknown[]): Promise<unknown>;
}

interface TonwebWallet {
  getAddress(): Promise<{ toString(userFriendly: boolean, urlSafe: boolean, bounceable: boolean): string }>;
  methods: {
    seqno(): { call(): Promise<number | null> };
    transfer(params: object): { send(): Promise<Json> };
  };
}

function commentOf(tx: Transaction, direction: 'in' | 'out'): string {
  const message = direction === 'in' ? tx.inMessage : tx.outMessages.get(0);
  const body = message?.body.beginParse();
  if (!body || body.loadUint(32) !== 0) throw new Error('not a text comment');
  return body.loadStringTail();
}

describe('TonClient and tonweb, unmodified, against the server on the local chain', () => {
  let stack: LocalStack;
  let client: TonClient;
  let provider: TonwebProvider;
  let tonweb: TonWeb;
  let tokens: DeployedTokens;
  let sender: Address;
  let receiver: Address;

  beforeAll(async () => {
    stack = await startLocalStack();
    client = new TonClient({ endpoint: `${stack.api}/jsonRPC` });
    const httpProvider = new TonWeb.HttpProvider(`${stack.api}/jsonRPC`);
    provider = httpProvider as unknown as TonwebProvider;
    tonweb = new TonWeb(httpProvider);
    sender = stack.localnet.wallets.wallets[0].address;
    receiver = stack.localnet.wallets.wallets[1].address;
    tokens = await deployTokens(client, stack.localnet.wallets.keyPair, onchainContent({ name: 'T' }));
  }, 60000);

  afterAll(async () => {
    await stack?.stop();
  });

  test('TonClient: getBalance, getContractState and WalletContractV4.getSeqno read the funded wallet', async () => {
    const wallet = client.open(WalletContractV4.create({ workchain: 0, publicKey: stack.localnet.wallets.keyPair.publicKey }));
    expect(wallet.address.equals(sender)).toBe(true);
    const info = (await rpc(stack, 'getAddressInformation', { address: sender.toString() })).body['result'] as Json;
    const state = await client.getContractState(sender);
    expect(state.state).toBe('active');
    expect(state.balance).toBe(BigInt(info['balance'] as string));
    expect(await client.getBalance(sender)).toBe(state.balance);
    expect(state.code?.equals(Buffer.from(info['code'] as string, 'base64'))).toBe(true);
    const last = info['last_transaction_id'] as Json;
    expect(state.lastTransaction).toEqual({ lt: last['lt'], hash: last['hash'] });
    const onChainSeqno = Cell.fromBase64(info['data'] as string)
      .beginParse()
      .loadUint(32);
    expect(await wallet.getSeqno()).toBe(onChainSeqno);
    expect(await client.isContractDeployed(new Address(0, Buffer.alloc(32, 1)))).toBe(false);
  });

  test('a transfer with a comment sent by TonClient shows up on both sides with the right amounts; tryLocate* follow it', async () => {
    const wallet = client.open(WalletContractV4.create({ workchain: 0, publicKey: stack.localnet.wallets.keyPair.publicKey }));
    const amount = toNano('1.25');
    const receiverBefore = await client.getBalance(receiver);
    const seqno = await wallet.getSeqno();
    const transfer = wallet.createTransfer({
      seqno,
      secretKey: stack.localnet.wallets.keyPair.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
      messages: [internal({ to: receiver, value: amount, body: 'hello from TonClient' })],
    });
    await client.sendExternalMessage(wallet, transfer);
    // Answered before its block, as on a network: the transfer is in the next one.
    await nextBlock(stack);
    expect(await wallet.getSeqno()).toBe(seqno + 1);

    const [sent] = await client.getTransactions(sender, { limit: 1 });
    expect(sent.inMessage?.info.type).toBe('external-in');
    expect(sent.inMessage?.body.hash().equals(transfer.hash())).toBe(true);
    const out = sent.outMessages.get(0);
    if (out?.info.type !== 'internal') throw new Error('no internal out message');
    expect(out.info.dest.equals(receiver)).toBe(true);
    expect(out.info.value.coins).toBe(amount);
    expect(commentOf(sent, 'out')).toBe('hello from TonClient');

    const received = await client.tryLocateResultTx(sender, receiver, out.info.createdLt.toString());
    if (received.inMessage?.info.type !== 'internal') throw new Error('no internal in message');
    expect(received.inMessage.info.src.equals(sender)).toBe(true);
    expect(received.inMessage.info.value.coins).toBe(amount);
    expect(commentOf(received, 'in')).toBe('hello from TonClient');
    expect(await client.getBalance(receiver)).toBe(receiverBefore + amount - received.totalFees.coins);
    const source = await client.tryLocateSourceTx(sender, receiver, out.info.createdLt.toString());
    expect(source.hash().equals(sent.hash())).toBe(true);

    // The receiver's view in toncenter's JSON: the comment in msg_data and in `message`.
    const [item] = (await rpc(stack, 'getTransactions', { address: receiver.toString(), limit: 1 })).body['result'] as Json[];
    expect(item['in_msg']).toMatchObject({
      source: sender.toString(),
      destination: receiver.toString(),
      value: amount.toString(),
      msg_data: { '@type': 'msg.dataText', text: Buffer.from('hello from TonClient').toString('base64') },
      message: 'hello from TonClient',
    });
    await expect(client.tryLocateResultTx(receiver, sender, out.info.createdLt.toString())).rejects.toThrow();
  });

  test('estimateExternalMessageFee predicts the fees the same message then pays', async () => {
    const wallet = client.open(WalletContractV4.create({ workchain: 0, publicKey: stack.localnet.wallets.keyPair.publicKey }));
    const transfer = wallet.createTransfer({
      seqno: await wallet.getSeqno(),
      secretKey: stack.localnet.wallets.keyPair.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: receiver, value: toNano('0.1'), body: 'fee check' })],
    });
    const estimate = await client.estimateExternalMessageFee(sender, {
      body: transfer,
      initCode: null,
      initData: null,
      ignoreSignature: true,
    });
    expect(estimate['@type']).toBe('query.fees');
    await client.sendExternalMessage(wallet, transfer);
    await nextBlock(stack);
    const [tx] = await client.getTransactions(sender, { limit: 1 });
    const description = tx.description;
    if (description.type !== 'generic' || description.computePhase.type !== 'vm' || !description.actionPhase)
      throw new Error('unexpected transaction');
    const fees = estimate.source_fees;
    expect(BigInt(fees.gas_fee)).toBe(description.computePhase.gasFees);
    expect(BigInt(fees.fwd_fee)).toBe(description.actionPhase.totalFwdFees ?? 0n);
    const storage = description.storagePhase?.storageFeesCollected ?? 0n;
    const importFee = tx.totalFees.coins - description.computePhase.gasFees - storage - (description.actionPhase.totalActionFees ?? 0n);
    expect(BigInt(fees.in_fwd_fee)).toBe(importFee);
    expect(fees.storage_fee).toBeGreaterThanOrEqual(0);
  });

  test('getTransactions paging as TonClient does it: limit+1 and drop the first, inclusive, to_lt exclusive, limit 100', async () => {
    for (let i = 0; i < 4; i++)
      await transferFromWallet(client, stack.localnet.wallets.keyPair, [internal({ to: receiver, value: toNano('0.01') })]);
    const all = await client.getTransactions(sender, { limit: 50 });
    expect(all.length).toBeGreaterThanOrEqual(7);
    const lts = all.map((tx) => tx.lt);
    expect([...lts].sort((a, b) => (a < b ? 1 : -1))).toEqual(lts);
    const history = stack.localnet.chain.store.transactionsOf(0, sender.hash);
    expect(lts).toEqual(history.map((tx) => tx.lt).reverse());

    const ids = (txs: Transaction[]) => txs.map((tx) => tx.hash().toString('hex'));
    const page1 = await client.getTransactions(sender, { limit: 2 });
    expect(ids(page1)).toEqual(ids(all.slice(0, 2)));
    const cursor = { lt: page1[1].lt.toString(), hash: page1[1].hash().toString('base64') };
    expect(ids(await client.getTransactions(sender, { limit: 2, ...cursor }))).toEqual(ids(all.slice(2, 4)));
    expect(ids(await client.getTransactions(sender, { limit: 2, ...cursor, inclusive: true }))).toEqual(ids(all.slice(1, 3)));
    expect(ids(await client.getTransactions(sender, { limit: 50, to_lt: all[3].lt.toString() }))).toEqual(ids(all.slice(0, 3)));
    // limit 100 arrives as 101 from TonClient.
    const first = { lt: all[0].lt.toString(), hash: all[0].hash().toString('base64') };
    expect(ids(await client.getTransactions(sender, { limit: 100, ...first }))).toEqual(ids(all.slice(1)));
    expect((await client.getTransaction(sender, first.lt, first.hash))?.hash().equals(all[0].hash())).toBe(true);
  });

  test('TonClient.runMethod with int, cell and slice arguments', async () => {
    const owner = beginCell().storeAddress(tokens.owner).endCell();
    const walletAddress = await client.runMethod(tokens.minter, 'get_wallet_address', [{ type: 'slice', cell: owner }]);
    expect(walletAddress.stack.readAddress().equals(tokens.jettonWallet)).toBe(true);
    const item = await client.runMethod(tokens.collection, 'get_nft_address_by_index', [{ type: 'int', value: 0n }]);
    expect(item.stack.readAddress().equals(tokens.item)).toBe(true);
    const individual = beginCell().storeBuffer(Buffer.from('7.json')).endCell();
    const content = await client.runMethod(tokens.collection, 'get_nft_content', [
      { type: 'int', value: 7n },
      { type: 'cell', cell: individual },
    ]);
    const full = content.stack.readCell().beginParse();
    expect(full.loadUint(8)).toBe(1);
    expect(full.loadStringTail()).toBe('https://example.com/items/7.json');
    const plugin = await client.runMethod(sender, 'is_plugin_installed', [
      { type: 'int', value: 0n },
      { type: 'int', value: 0x1234n },
    ]);
    expect(plugin.stack.readBigNumber()).toBe(0n);
    expect(plugin.gas_used).toBeGreaterThan(0);
    await expect(client.runMethod(sender, 'no_such_method')).rejects.toThrow(/exit_code: 11/);
  });

  test('tonweb HttpProvider: getAddressInfo, getWalletInfo, getBalance and call with a stack', async () => {
    const address = sender.toString();
    const info = await provider.getAddressInfo(address);
    expect(info).toMatchObject({ '@type': 'raw.fullAccountState', state: 'active' });
    const walletInfo = await provider.getWalletInfo(address);
    expect(walletInfo).toMatchObject({ wallet: true, wallet_type: 'wallet v4 r2', wallet_id: stack.localnet.wallets.wallets[0].walletId });
    expect(await provider.getBalance(address)).toBe(info['balance']);
    const seqno = await provider.call2(address, 'seqno');
    expect(String(seqno)).toBe(String(walletInfo['seqno']));
    const walletAddress = await provider.call(tokens.minter.toString(), 'get_wallet_address', [
      ['tvm.Slice', beginCell().storeAddress(tokens.owner).endCell().toBoc().toString('base64')],
    ]);
    const [[type, value]] = walletAddress['stack'] as [string, { bytes: string }][];
    expect(type).toBe('cell');
    expect(Cell.fromBase64(value.bytes).beginParse().loadAddress().equals(tokens.jettonWallet)).toBe(true);
    const raw = await provider.call(address, 'is_plugin_installed', [
      ['num', 0],
      ['num', '0x1234'],
    ]);
    expect(raw).toMatchObject({ '@type': 'smc.runResult', exit_code: 0, stack: [['num', '0x0']] });
  });

  test('tonweb wallet transfer with a comment: send() resolves ok and both sides see it through getTransactions', async () => {
    const WalletClass = (tonweb.wallet.all as unknown as Record<string, new (p: unknown, o: object) => TonwebWallet>)['v4R2'];
    const wallet = new WalletClass(tonweb.provider, { publicKey: stack.localnet.wallets.keyPair.publicKey, wc: 0 });
    const address = (await wallet.getAddress()).toString(true, true, true);
    expect(address).toBe(sender.toString());
    const seqno = await wallet.methods.seqno().call();
    expect(typeof seqno).toBe('number');
    const sent = await wallet.methods
      .transfer({
        secretKey: stack.localnet.wallets.keyPair.secretKey,
        toAddress: receiver.toString(),
        amount: TonWeb.utils.toNano('2.5'),
        seqno,
        payload: 'from tonweb',
        sendMode: 3,
      })
      .send();
    expect(sent).toEqual({ '@type': 'ok' });
    await nextBlock(stack);
    expect(await wallet.methods.seqno().call()).toBe((seqno as number) + 1);

    const [out] = await provider.getTransactions(address, 1);
    expect((out['out_msgs'] as Json[])[0]).toMatchObject({ destination: receiver.toString(), value: '2500000000', message: 'from tonweb' });
    const [incoming] = await provider.getTransactions(receiver.toString(), 1);
    expect(incoming['in_msg']).toMatchObject({ source: address, value: '2500000000', message: 'from tonweb' });
    const txId = incoming['transaction_id'] as { lt: string; hash: string };
    // Paging with a base64 hash as tonweb users pass it: the transaction itself comes first.
    const again = await provider.getTransactions(receiver.toString(), 1, txId.lt, txId.hash);
    expect(again[0]['transaction_id']).toEqual(txId);
  });
});
