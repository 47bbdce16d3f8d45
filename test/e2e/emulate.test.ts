import {
  Address,
  beginCell,
  Cell,
  contractAddress,
  external,
  internal,
  loadTransaction,
  MessageRelaxed,
  SendMode,
  StateInit,
  storeMessage,
  toNano,
  Transaction,
} from '@ton/core';
import { TonClient, WalletContractV4 } from '@ton/ton';
import { toV3Transaction, type V3TransactionJson } from '../../src/converters';
import { startLocalStack, rpc, type LocalStack } from '../helpers/localStack';
import { jettonTransferBody, jettonWalletAddress, jettonWalletInit, mintBody } from '../helpers/jetton';
import { deployFromWallet, transferFromWallet } from '../helpers/walletActions';

/**
 * The Emulate API against the embedded chain: emulate a message, then send the very message and
 * compare the emulated trace with the one the chain made (transaction count, order, accounts,
 * exit codes, out messages, compute and forward fees; balances up to the storage fees the later
 * block time changes). Then the bounds: a trace that doubles at every hop, a transaction that
 * burns its whole gas limit, BoCs at the size limits, bad requests.
 */

type Json = Record<string, unknown>;

/** Doubles every message with a 32-bit body: two 0.01 TON messages to itself (FunC, func-js). */
const FAN_OUT_CODE = Cell.fromBase64('te6cckEBAgEAPgABFP8A9KQT9LzyyAsBAF7TMzHQ0wMwcbCRMODXScEg3HFwgBDIywX4KM8WggiYloD6Astqyx/JIHH7AHH7ADj/hFE=');
/** `50 THROW`: every message fails in the compute phase with exit code 50. */
const THROW_CODE = beginCell().storeUint(0xf232, 16).endCell();
/** NEWC, BTOS (global version 12's instruction), SBITS: exit 0 where the TVM has version 12. */
const BTOS_CODE = beginCell().storeUint(0xc8, 8).storeUint(0xcf50, 16).storeUint(0xd749, 16).endCell();
/** AGAINEND with nothing after it: every message loops until its gas runs out. */
const GAS_LOOP_CODE = beginCell().storeUint(0xeb, 8).endCell();

interface EmulateAnswer {
  mc_block_seqno: number;
  trace: TraceNode;
  transactions: Record<string, V3TransactionJson>;
  actions?: unknown[];
  code_cells?: Record<string, string>;
  data_cells?: Record<string, string>;
  address_book?: Record<string, { user_friendly: string }>;
  metadata?: Json;
  rand_seed: string;
  is_incomplete: boolean;
}

interface TraceNode {
  tx_hash: string;
  in_msg_hash: string;
  children: TraceNode[] | null;
}

function topBit(address: Address): number {
  return address.hash[0]! >> 7;
}

describe('Emulate API on the embedded chain', () => {
  let stack: LocalStack;
  let client: TonClient;
  let wallet: WalletContractV4;

  beforeAll(async () => {
    stack = await startLocalStack(['--request-timeout', '30000']);
    client = new TonClient({ endpoint: `${stack.api}/jsonRPC` });
    wallet = WalletContractV4.create({ workchain: 0, publicKey: stack.localnet.wallets.keyPair.publicKey });
  }, 60000);

  afterAll(async () => {
    await stack?.stop();
  });

  async function emulate(route: 'emulateTrace' | 'emulateTonConnect', body: Json): Promise<{ status: number; body: Json }> {
    const res = await fetch(`${stack.url}/api/emulate/v1/${route}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  async function seqno(): Promise<number> {
    return client.open(wallet).getSeqno();
  }

  /** Wallet 0's signed external message carrying `messages` (send mode 3, as TON Connect's). */
  async function signedTransfer(messages: MessageRelaxed[]): Promise<Cell> {
    const body = wallet.createTransfer({
      seqno: await seqno(),
      secretKey: stack.localnet.wallets.keyPair.secretKey,
      messages,
      sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
    });
    return beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell();
  }

  async function transactionsOf(address: Address): Promise<Transaction[]> {
    const { body } = await rpc(stack, 'getTransactions', { address: address.toString(), limit: 30 });
    const list = (body['result'] ?? []) as { data: string }[];
    return list.map((tx) => loadTransaction(Cell.fromBase64(tx.data).beginParse()));
  }

  /** The trace the chain made from the external message `root`, breadth first (as it ran). */
  async function realTrace(root: Cell): Promise<Cell[]> {
    const found: Cell[] = [];
    const pending: { account: Address; inHash: Buffer; source?: Address; createdLt?: bigint }[] = [{ account: wallet.address, inHash: root.hash() }];
    const started = Date.now();
    while (pending.length > 0) {
      const { account, inHash, source, createdLt } = pending.shift()!;
      let tx: Transaction | undefined;
      for (let attempt = 0; ; attempt++) {
        tx = (await transactionsOf(account)).find((t) => t.inMessage && t.raw.refs[0]!.beginParse().loadRef().hash().equals(inHash));
        // An account that holds nothing after its transaction (a bounce from nowhere) has no
        // history to walk: the transaction is located from its message instead.
        if (!tx && source && createdLt !== undefined && attempt >= 5) {
          const located = await rpc(stack, 'tryLocateResultTx', { source: source.toString(), destination: account.toString(), created_lt: createdLt.toString() });
          const data = (located.body['result'] as { data?: string } | undefined)?.data;
          if (data) tx = loadTransaction(Cell.fromBase64(data).beginParse());
        }
        if (tx || Date.now() - started > 20000) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      if (!tx) throw new Error(`no transaction of ${account.toRawString()} received ${inHash.toString('base64')}`);
      found.push(tx.raw);
      for (const key of [...tx.outMessages.keys()].sort((a, b) => a - b)) {
        const out = tx.outMessages.get(key)!;
        if (out.info.type !== 'internal') continue;
        const cell = beginCell().store(storeMessage(out)).endCell();
        pending.push({ account: out.info.dest, inHash: cell.hash(), source: out.info.src, createdLt: out.info.createdLt });
      }
    }
    return found;
  }

  /** The emulated transactions in the order the trace tree gives them breadth first. */
  function emulatedOrder(answer: EmulateAnswer): V3TransactionJson[] {
    const out: V3TransactionJson[] = [];
    const queue: TraceNode[] = [answer.trace];
    while (queue.length > 0) {
      const node = queue.shift()!;
      out.push(answer.transactions[node.tx_hash]!);
      queue.push(...(node.children ?? []));
    }
    return out;
  }

  /** What must be equal in an emulated transaction and the real one. */
  function essentials(tx: V3TransactionJson): Json {
    const d = tx.description;
    // The embedded chain (sandbox) keeps accounts it never saw as uninit with no balance, where a
    // network (and the emulation) has none: the one status the two may name differently.
    const origStatus = tx.orig_status === 'uninit' ? 'nonexist' : tx.orig_status;
    const compute = d.compute_ph ?? {};
    const storage = BigInt((d.storage_ph?.['storage_fees_collected'] as string | undefined) ?? '0');
    return {
      account: tx.account,
      orig_status: origStatus,
      end_status: tx.end_status,
      aborted: d.aborted,
      compute: {
        skipped: compute['skipped'],
        reason: compute['reason'],
        success: compute['success'],
        exit_code: compute['exit_code'],
        gas_used: compute['gas_used'],
        gas_fees: compute['gas_fees'],
      },
      action: d.action
        ? {
            result_code: d.action['result_code'],
            total_fwd_fees: d.action['total_fwd_fees'],
            total_action_fees: d.action['total_action_fees'],
            msgs_created: d.action['msgs_created'],
          }
        : null,
      bounce: d.bounce ?? null,
      fees_without_storage: (BigInt(tx.total_fees) - storage).toString(),
      in_msg: tx.in_msg && { value: tx.in_msg.value, bounce: tx.in_msg.bounce, bounced: tx.in_msg.bounced, body: tx.in_msg.message_content.hash },
      out_msgs: tx.out_msgs.map((m) => ({
        destination: m.destination,
        value: m.value,
        fwd_fee: m.fwd_fee,
        bounce: m.bounce,
        bounced: m.bounced,
        opcode: m.opcode,
        body: m.message_content.hash,
        init: m.init_state?.hash ?? null,
      })),
    };
  }

  function storageFee(tx: V3TransactionJson): bigint {
    return BigInt((tx.description.storage_ph?.['storage_fees_collected'] as string | undefined) ?? '0');
  }

  /** Emulates `root`, sends it, and checks the emulated trace against the chain's. */
  async function emulateThenSend(root: Cell): Promise<{ emulated: V3TransactionJson[]; real: V3TransactionJson[]; answer: EmulateAnswer }> {
    const res = await emulate('emulateTrace', { boc: root.toBoc().toString('base64'), include_code_data: true });
    expect(res.status).toBe(200);
    const answer = res.body as unknown as EmulateAnswer;
    expect(answer.is_incomplete).toBe(false);
    const emulated = emulatedOrder(answer);
    expect(emulated).toHaveLength(Object.keys(answer.transactions).length);

    const sent = await rpc(stack, 'sendBocReturnHash', { boc: root.toBoc().toString('base64') });
    expect(sent.status).toBe(200);
    const realCells = await realTrace(root);
    const place = { mcBlockSeqno: 0, blockRef: { workchain: 0, shard: '8000000000000000', seqno: 0 }, emulated: false, finality: 'finalized' as const };
    const real = realCells.map((cell, i) => toV3Transaction(cell, Address.parseRaw(emulated[i]?.account ?? '0:' + '0'.repeat(64)).workChain, place, null));
    expect(emulated.map(essentials)).toEqual(real.map(essentials));
    // The root ran the very message: same external message hash.
    expect(emulated[0]!.in_msg!.hash).toBe(root.hash().toString('base64'));

    // Balances: what each account holds after the trace, up to the storage fees of a later block time.
    for (const account of new Set(emulated.map((tx) => tx.account))) {
      const emulatedTxs = emulated.filter((tx) => tx.account === account);
      const realTxs = real.filter((tx) => tx.account === account);
      const last = emulatedTxs[emulatedTxs.length - 1]!;
      const { body } = await rpc(stack, 'getAddressBalance', { address: account });
      const emulatedStorage = emulatedTxs.reduce((sum, tx) => sum + storageFee(tx), 0n);
      const realStorage = realTxs.reduce((sum, tx) => sum + storageFee(tx), 0n);
      expect(BigInt(last.account_state_after!.balance ?? '0') + emulatedStorage).toBe(BigInt(body['result'] as string) + realStorage);
    }
    return { emulated, real, answer };
  }

  test('a wallet transfer to a wallet in another shard: two transactions, as the chain runs them', async () => {
    const others = stack.localnet.wallets.wallets.filter((w) => topBit(w.address) !== topBit(wallet.address));
    expect(others.length).toBeGreaterThan(0);
    const target = others[0]!.address;
    const root = await signedTransfer([internal({ to: target, value: toNano('1.5'), bounce: true, body: 'emulated hello' })]);
    const { emulated, answer } = await emulateThenSend(root);
    expect(emulated).toHaveLength(2);
    expect(emulated[1]!.account).toBe(`0:${target.hash.toString('hex').toUpperCase()}`);
    expect(emulated[1]!.block_ref.shard).not.toBe(emulated[0]!.block_ref.shard);
    // The whole answer's shape: toncenter's fields, the tree, states and cells.
    expect(answer.trace.children).toHaveLength(1);
    expect(answer.trace.children![0]!.children).toEqual([]);
    expect(answer.rand_seed).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(emulated[0]!.emulated).toBe(true);
    expect(emulated[0]!.finality).toBe('pending');
    expect(emulated[0]!.trace_external_hash).toBeDefined();
    expect(emulated[0]!.in_msg!.hash_norm).toBe(emulated[0]!.trace_external_hash);
    expect(emulated[0]!.account_state_before!.hash).not.toBe(emulated[0]!.account_state_after!.hash);
    expect(Object.keys(answer.code_cells!)).toContain(emulated[0]!.account_state_after!.code_hash);
    expect(answer.actions).toBeUndefined();
  }, 60000);

  test('a deploy with a state init', async () => {
    const init: StateInit = { code: wallet.init.code, data: beginCell().storeUint(0, 32).storeUint(698983191 + 77, 32).storeBuffer(wallet.publicKey).storeBit(0).endCell() };
    const target = contractAddress(0, init);
    const root = await signedTransfer([internal({ to: target, value: toNano('0.3'), bounce: false, init })]);
    const { emulated } = await emulateThenSend(root);
    expect(emulated).toHaveLength(2);
    expect(emulated[1]!.orig_status).toBe('nonexist');
    expect(emulated[1]!.end_status).toBe('active');
  }, 60000);

  test('a bounceable message to nobody bounces back: three transactions', async () => {
    const nobody = new Address(0, Buffer.alloc(32, 0x5a));
    const root = await signedTransfer([internal({ to: nobody, value: toNano('0.2'), bounce: true })]);
    const { emulated } = await emulateThenSend(root);
    expect(emulated).toHaveLength(3);
    expect(emulated[1]!.description.compute_ph).toMatchObject({ skipped: true, reason: 'no_state' });
    expect(emulated[2]!.in_msg!.bounced).toBe(true);
  }, 60000);

  test('a message failing in the compute phase: exit code 50, bounced', async () => {
    const [thrower] = await deployFromWallet(client, stack.localnet.wallets.keyPair, [{ code: THROW_CODE, data: beginCell().storeUint(1, 8).endCell() }], toNano('0.2'));
    const root = await signedTransfer([internal({ to: thrower!, value: toNano('0.3'), bounce: true, body: beginCell().storeUint(7, 32).endCell() })]);
    const { emulated } = await emulateThenSend(root);
    expect(emulated).toHaveLength(3);
    expect(emulated[1]!.description.compute_ph).toMatchObject({ success: false, exit_code: 50 });
    expect(emulated[1]!.description.aborted).toBe(true);
  }, 60000);

  test('a contract using an instruction of global version 12 (the chain runs 12): get-method and emulation run it', async () => {
    const [btos] = await deployFromWallet(client, stack.localnet.wallets.keyPair, [{ code: BTOS_CODE, data: beginCell().storeUint(4, 8).endCell() }], toNano('0.2'));
    const run = await rpc(stack, 'runGetMethod', { address: btos!.toString(), method: 'anything', stack: [] });
    expect(run.status).toBe(200);
    expect((run.body['result'] as Json)['exit_code']).toBe(0);
    const root = await signedTransfer([internal({ to: btos!, value: toNano('0.1'), bounce: true })]);
    const { emulated } = await emulateThenSend(root);
    expect(emulated[1]!.description.compute_ph).toMatchObject({ success: true, exit_code: 0 });
  }, 60000);

  test('a jetton transfer with a forward payload (mainnet jetton wallet code): five transactions', async () => {
    const others = stack.localnet.wallets.wallets.filter((w) => topBit(w.address) !== topBit(wallet.address));
    const receiver = others[0]!.address;
    // Wallet 0 is the jetton's master: it mints to its own jetton wallet.
    const ours = jettonWalletAddress(wallet.address, wallet.address);
    await transferFromWallet(client, stack.localnet.wallets.keyPair, [
      internal({ to: ours, value: toNano('0.2'), bounce: false, init: jettonWalletInit(wallet.address, wallet.address), body: mintBody(1_000_000n, wallet.address) }),
    ]);
    const body = jettonTransferBody({
      amount: 12_345n,
      to: receiver,
      responseTo: wallet.address,
      forwardTon: toNano('0.05'),
      forwardPayload: beginCell().storeUint(0, 32).storeStringTail('for the receiver').endCell(),
    });
    const root = await signedTransfer([internal({ to: ours, value: toNano('0.3'), bounce: true, body })]);
    const { emulated } = await emulateThenSend(root);
    // wallet -> our jetton wallet -> theirs -> (notification to the receiver, excess back to us)
    expect(emulated).toHaveLength(5);
    expect(emulated[2]!.account).toBe(`0:${jettonWalletAddress(receiver, wallet.address).hash.toString('hex').toUpperCase()}`);
    expect(emulated[3]!.in_msg!.opcode).toBe('0x7362d09c');
    expect(emulated[4]!.in_msg!.opcode).toBe('0xd53276db');
  }, 90000);

  test('emulateTonConnect of a transfer gives the trace the signed transfer makes', async () => {
    const others = stack.localnet.wallets.wallets.filter((w) => topBit(w.address) !== topBit(wallet.address));
    const target = others[0]!.address;
    // Long enough that the wallet's message keeps it in a reference, as TON Connect messages do.
    const payload = beginCell().storeUint(0, 32).storeStringTail('through ton connect '.repeat(8)).endCell();
    const res = await emulate('emulateTonConnect', {
      from: wallet.address.toString(),
      messages: [{ address: target.toString({ bounceable: true }), amount: '1200000000', payload: payload.toBoc().toString('base64') }],
      include_address_book: true,
      with_actions: true,
      include_metadata: true,
    });
    expect(res.status).toBe(200);
    const answer = res.body as unknown as EmulateAnswer;
    const viaTonConnect = emulatedOrder(answer);
    const root = await signedTransfer([internal({ to: target, value: 1_200_000_000n, bounce: true, body: payload })]);
    const { emulated } = await emulateThenSend(root);
    // The external messages differ (TON Connect's is composed, with a zero signature and its own
    // layout), so the root's inbound message and import fee do; everything the wallet did is the same.
    const withoutRootBody = (tx: V3TransactionJson, i: number): Json => ({ ...essentials(tx), ...(i === 0 ? { in_msg: null, fees_without_storage: null } : {}) });
    expect(viaTonConnect.map(withoutRootBody)).toEqual(emulated.map(withoutRootBody));
    expect(answer.actions).toEqual([]);
    expect(answer.metadata).toEqual({});
    const walletRaw = `0:${wallet.address.hash.toString('hex').toUpperCase()}`;
    // A wallet's friendly form in the address book is non-bounceable (ton-index-go's rule).
    expect(answer.address_book![walletRaw]!.user_friendly).toBe(wallet.address.toString({ bounceable: false, urlSafe: true }));
  }, 60000);

  test('a trace that doubles at every hop stops at 256 transactions, marked incomplete, within the deadline', async () => {
    const [fan] = await deployFromWallet(client, stack.localnet.wallets.keyPair, [{ code: FAN_OUT_CODE, data: beginCell().storeUint(2, 8).endCell() }], toNano('50'));
    const root = await signedTransfer([internal({ to: fan!, value: toNano('0.1'), bounce: false, body: beginCell().storeUint(1, 32).endCell() })]);
    const started = Date.now();
    const res = await emulate('emulateTrace', { boc: root.toBoc().toString('base64') });
    expect(Date.now() - started).toBeLessThan(30000);
    expect(res.status).toBe(200);
    const answer = res.body as unknown as EmulateAnswer;
    expect(answer.is_incomplete).toBe(true);
    expect(Object.keys(answer.transactions)).toHaveLength(256);
  }, 60000);

  test('a transaction burning its whole gas limit: a bounded answer', async () => {
    const [loop] = await deployFromWallet(client, stack.localnet.wallets.keyPair, [{ code: GAS_LOOP_CODE, data: beginCell().storeUint(3, 8).endCell() }], toNano('0.2'));
    const root = await signedTransfer([internal({ to: loop!, value: toNano('100'), bounce: true, body: beginCell().storeUint(1, 32).endCell() })]);
    const res = await emulate('emulateTrace', { boc: root.toBoc().toString('base64') });
    expect(res.status).toBe(200);
    const answer = res.body as unknown as EmulateAnswer;
    const txs = emulatedOrder(answer);
    expect(txs[1]!.description.compute_ph).toMatchObject({ exit_code: -14, gas_used: '1000000' });
  }, 60000);

  test('bad requests: 400 with toncenter texts; refused messages and BoCs over the bounds: 4xx', async () => {
    expect(await emulate('emulateTrace', {})).toEqual({ status: 400, body: { error: 'invalid request: boc is required' } });
    expect((await emulate('emulateTrace', { boc: 'not base64!' })).status).toBe(400);
    expect((await emulate('emulateTrace', { boc: 'te6ccgEBAQEAAgAAAA==', ignore_chksig: 'yes' })).status).toBe(400);
    // One cell, not a message.
    expect((await emulate('emulateTrace', { boc: 'te6ccgEBAQEAAgAAAA==' })).status).toBe(422);
    // A message with a bad signature: the wallet does not accept it.
    const good = await signedTransfer([internal({ to: wallet.address, value: 1n })]);
    const slice = good.beginParse();
    const forged = beginCell().storeBits(slice.loadBits(good.bits.length - 8)).storeUint(0, 8);
    for (const ref of good.refs) forged.storeRef(ref);
    const refused = await emulate('emulateTrace', { boc: forged.endCell().toBoc().toString('base64') });
    expect(refused.status).toBe(422);
    expect(refused.body['error']).toMatch(/^EmulationExternalNotAccepted/);
    // The same message with signature checks off runs.
    expect((await emulate('emulateTrace', { boc: forged.endCell().toBoc().toString('base64'), ignore_chksig: true })).status).toBe(200);
    // 9 000 cells: over sendBoc's 8 192-cell bound, refused before any decoding.
    let chain = beginCell().endCell();
    for (let i = 0; i < 9000; i++) chain = beginCell().storeUint(i, 16).storeRef(chain).endCell();
    const huge = await emulate('emulateTrace', { boc: chain.toBoc().toString('base64') });
    expect(huge.status).toBe(400);
    expect(huge.body['error']).toMatch(/cells/);
    expect(await emulate('emulateTonConnect', { from: wallet.address.toString(), messages: [] })).toEqual({
      status: 400,
      body: { error: 'invalid request: messages array cannot be empty' },
    });
    const five = Array.from({ length: 5 }, () => ({ address: wallet.address.toString(), amount: '1' }));
    expect((await emulate('emulateTonConnect', { from: wallet.address.toString(), messages: five })).status).toBe(400);
    const notWallet = await emulate('emulateTonConnect', { from: new Address(0, Buffer.alloc(32, 7)).toString(), messages: [{ address: wallet.address.toString(), amount: '1' }] });
    expect(notWallet).toEqual({ status: 422, body: { error: 'Account state no code or no data' } });
    const future = await emulate('emulateTrace', { boc: good.toBoc().toString('base64'), mc_block_seqno: 4_000_000_000 });
    expect(future).toEqual({ status: 422, body: { error: 'mc block seqno is too new' } });
  }, 60000);
});
