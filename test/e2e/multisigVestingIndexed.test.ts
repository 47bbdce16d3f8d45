import { Address, beginCell, Cell, contractAddress, Dictionary, internal, SendMode, storeMessageRelaxed, toNano, type StateInit } from '@ton/core';
import { TonClient } from '@ton/ton';
import { V4R2_BASE_SUBWALLET_ID } from '../../src/localnet/wallets';
import { storeMultisigApprove, storeMultisigNewOrder, storeVestingAddWhitelist, storeVestingSendMessage, storeTextComment } from '../../src/tlb';
import { createTestDatabase, INDEX_BACKENDS, type TestDatabase } from '../helpers/indexDatabases';
import { nextBlock, startLocalStack, type LocalStack } from '../helpers/localStack';
import { indexCaughtUp } from '../helpers/tokens';
import { getMethodOk } from '../helpers/v2Calls';
import { transferFromWallet } from '../helpers/walletActions';
import { loadV3DocsSpec, loadV3Spec, V3_DOCS_SPEC_PRESENT, V3_SPEC_PRESENT, type V3SpecValidator } from '../v3/v3Spec';
import compiled from '../fixtures/contracts/multisigVesting.json';

jest.setTimeout(300_000);

type Json = Record<string, unknown>;
type V2Entry = [string, unknown];

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const code = (name: keyof typeof compiled) => Cell.fromBase64(compiled[name].codeBoc);

function addressDict(list: Address[]): Dictionary<number, Address> {
  const dict = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());
  list.forEach((a, i) => dict.set(i, a));
  return dict;
}

/** A v2 stack number entry as a bigint. */
const v2Int = (entry: V2Entry | undefined) => {
  const text = entry![1] as string;
  return text.startsWith('-') ? -BigInt(text.slice(1)) : BigInt(text);
};
/** A v2 stack cell entry as a cell. */
const v2Cell = (entry: V2Entry | undefined) => Cell.fromBase64((entry![1] as { bytes: string }).bytes);
const dictAddresses = (cell: Cell) => {
  const dict = Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Address(), cell);
  return [...dict.keys()].sort((a, b) => a - b).map((k) => raw(dict.get(k)!));
};

/**
 * Multisig v2 and vesting on the embedded chain, with the contracts' real code (compiled from
 * ton-blockchain/multisig-contract-v2 and vesting-contract by test/fixtures/contracts/build.ts, the
 * mainnet code hashes): a 2-of-2 multisig of two funded wallets; signer 0 creates an order (and
 * approves it on creation) that pays wallet 2 with a comment, signer 1 approves it and it runs. A
 * vesting contract whose sender (wallet 0) whitelists wallet 2 and whose owner (wallet 1) sends
 * locked coins there. Each contract appears in its route with the values its own get-methods give
 * through v2 runGetMethod, and each step as its action. On PostgreSQL and on PGlite.
 */
describe.each(INDEX_BACKENDS)('multisig and vesting indexed from the local chain (%s)', (backend) => {
  let db: TestDatabase;
  let stack: LocalStack;
  let client: TonClient;
  let wallets: Address[];
  let multisig: Address;
  let order: Address;
  let vesting: Address;
  const expirationDate = Math.floor(Date.now() / 1000) + 86_400;
  const payment = toNano('0.5');
  const vestingStart = Math.floor(Date.now() / 1000) - 60;
  const vestingAmount = toNano('10');

  const spec: V3SpecValidator | undefined = V3_SPEC_PRESENT ? loadV3Spec() : undefined;
  // `actions` is in the docs' copy of the spec only.
  const docsSpec: V3SpecValidator | undefined = V3_DOCS_SPEC_PRESENT ? loadV3DocsSpec() : undefined;

  /** The routes of this file the 1.2.6 spec file has (decode is in neither copy). */
  const SPEC_ROUTES = new Set(['/multisig/wallets', '/multisig/orders', '/vesting', '/messages']);

  /** A v3 answer; a 200 of a route the spec has is validated against ../shared/spec/v3 (when present). */
  async function v3(path: string, init?: RequestInit): Promise<{ status: number; body: Json }> {
    const res = await fetch(`${stack.url}/api/v3${path}`, init);
    const body = (await res.json()) as Json;
    const route = path.split('?')[0]!;
    const errors = res.status === 200 && SPEC_ROUTES.has(route) ? spec?.check(route, body) : null;
    if (errors) throw new Error(`${path} does not match the spec: ${JSON.stringify(errors.slice(0, 3))}`);
    return { status: res.status, body };
  }

  const getMethod = (address: Address, method: string) => getMethodOk(stack, address, method);

  async function actionsOf(account: Address, version = 'latest'): Promise<Json[]> {
    const res = await fetch(`${stack.url}/api/v3/actions?account=${raw(account)}&sort=asc`, { headers: { 'X-Actions-Version': version } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    const errors = docsSpec?.check('/actions', body);
    if (errors) throw new Error(`actions do not match the spec: ${JSON.stringify(errors.slice(0, 3))}`);
    return body['actions'] as Json[];
  }

  const send = (from: number, to: Address, value: bigint, body: Cell, init?: StateInit) =>
    transferFromWallet(client, stack.localnet.wallets.keyPair, [internal({ to, value, body, init, bounce: !init })], V4R2_BASE_SUBWALLET_ID + from);

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    stack = await startLocalStack(['--accounts', '3', '--block-interval', '300', '--index', 'on', ...(db.url ? ['--database-url', db.url] : [])]);
    client = new TonClient({ endpoint: `${stack.api}/jsonRPC` });
    wallets = stack.localnet.wallets.wallets.filter((w) => w.version === 'v4r2').map((w) => w.address);
    // The multisig's orders are deployed with a library cell as code (as on mainnet): publish it.
    await stack.localnet.chain.addLibrary(code('order'));
    await nextBlock(stack);

    const multisigInit: StateInit = {
      code: code('multisig'),
      data: beginCell()
        .storeUint(0, 256)
        .storeUint(2, 8)
        .storeRef(beginCell().storeDictDirect(addressDict([wallets[0]!, wallets[1]!])))
        .storeUint(2, 8)
        .storeDict(null)
        .storeBit(false)
        .endCell(),
    };
    multisig = contractAddress(0, multisigInit);
    await send(0, multisig, toNano('2'), beginCell().storeUint(0, 32).storeUint(0, 64).endCell(), multisigInit);

    const comment = beginCell().store(storeTextComment({ text: Buffer.from('paid by multisig') })).endCell();
    const pay = beginCell()
      .storeUint(0xf1381e5b, 32)
      .storeUint(SendMode.PAY_GAS_SEPARATELY, 8)
      .storeRef(beginCell().store(storeMessageRelaxed(internal({ to: wallets[2]!, value: payment, bounce: false, body: comment }))))
      .endCell();
    const actions = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Cell());
    actions.set(0, pay);
    const orderCell = beginCell().storeDictDirect(actions).endCell();
    const newOrder = beginCell().store(storeMultisigNewOrder({ queryId: 11n, orderSeqno: 0n, signer: true, index: 0, expirationDate, order: orderCell })).endCell();
    await send(0, multisig, toNano('1'), newOrder);
    await nextBlock(stack);
    const answer = await client.runMethod(multisig, 'get_order_address', [{ type: 'int', value: 0n }]);
    order = answer.stack.readAddress();
    await send(1, order, toNano('0.2'), beginCell().store(storeMultisigApprove({ queryId: 12n, signerIndex: 1 })).endCell());

    const vestingInit: StateInit = {
      code: code('vesting'),
      data: beginCell()
        .storeUint(0, 32)
        .storeUint(42, 32)
        .storeBuffer(stack.localnet.wallets.keyPair.publicKey)
        .storeBit(false)
        .storeRef(
          beginCell()
            .storeUint(vestingStart, 64)
            .storeUint(360 * 86_400, 32)
            .storeUint(30 * 86_400, 32)
            .storeUint(0, 32)
            .storeCoins(vestingAmount)
            .storeAddress(wallets[0]!)
            .storeAddress(wallets[1]!),
        )
        .endCell(),
    };
    vesting = contractAddress(0, vestingInit);
    await send(0, vesting, toNano('20'), Cell.EMPTY, vestingInit);
    await send(0, vesting, toNano('0.2'), beginCell().store(storeVestingAddWhitelist({ queryId: 13n, addresses: [wallets[2]!] })).endCell());
    const locked = beginCell().store(storeMessageRelaxed(internal({ to: wallets[2]!, value: toNano('1'), bounce: true }))).endCell();
    await send(1, vesting, toNano('0.2'), beginCell().store(storeVestingSendMessage({ queryId: 14n, sendMode: 3, message: locked })).endCell());
    await nextBlock(stack);
    await indexCaughtUp(stack);
  });

  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
  });

  it('lists the multisig with what get_multisig_data gives, and its executed order with what get_order_data gives', async () => {
    const data = await getMethod(multisig, 'get_multisig_data');
    const { status, body } = await v3(`/multisig/wallets?address=${encodeURIComponent(multisig.toString())}`);
    expect(status).toBe(200);
    const [m] = body['multisigs'] as Json[];
    expect(m).toMatchObject({
      address: raw(multisig),
      next_order_seqno: v2Int(data[0]).toString(),
      threshold: Number(v2Int(data[1])),
      signers: dictAddresses(v2Cell(data[2])),
      proposers: [],
    });
    expect(m!['signers']).toEqual([raw(wallets[0]!), raw(wallets[1]!)]);
    expect(m!['next_order_seqno']).toBe('1');
    const orderData = await getMethod(order, 'get_order_data');
    const orders = m!['orders'] as Json[];
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      address: raw(order),
      multisig_address: raw(multisig),
      order_seqno: v2Int(orderData[1]).toString(),
      threshold: Number(v2Int(orderData[2])),
      sent_for_execution: v2Int(orderData[3]) !== 0n,
      signers: dictAddresses(v2Cell(orderData[4])),
      approvals_mask: v2Int(orderData[5]).toString(),
      approvals_num: Number(v2Int(orderData[6])),
      expiration_date: Number(v2Int(orderData[7])),
      order_boc: v2Cell(orderData[8]).toBoc().toString('base64'),
      actions: null,
    });
    expect(orders[0]).toMatchObject({ sent_for_execution: true, approvals_num: 2, approvals_mask: '3', expiration_date: expirationDate });
    expect(orders[0]!['last_transaction_lt']).toMatch(/^\d+$/);
    // By a signer; without orders; the 422 of no filter.
    const bySigner = await v3(`/multisig/wallets?wallet_address=${raw(wallets[1]!)}&include_orders=false`);
    expect((bySigner.body['multisigs'] as Json[]).map((x) => [x['address'], x['orders']])).toEqual([[raw(multisig), []]]);
    expect((bySigner.body['address_book'] as Json)[raw(wallets[1]!)]).toBeDefined();
    expect((await v3(`/multisig/wallets?wallet_address=${raw(wallets[2]!)}`)).body['multisigs']).toEqual([]);
    expect(await v3('/multisig/wallets')).toEqual({ status: 422, body: { error: 'At least one of address or wallet_address should be specified' } });
  });

  it('lists the order by its multisig with its actions parsed', async () => {
    const { status, body } = await v3(`/multisig/orders?multisig_address=${raw(multisig)}&parse_actions=true`);
    expect(status).toBe(200);
    const [o] = body['orders'] as Json[];
    expect(o!['address']).toBe(raw(order));
    expect(o!['actions']).toEqual([
      expect.objectContaining({
        destination: raw(wallets[2]!),
        value: payment.toString(),
        parsed: true,
        error: null,
        parsed_body_type: 'ton_transfer',
        // ton-index-go reads the comment from the body's first bit: the opcode's zero bytes lead it.
        parsed_body: { comment: '\u0000\u0000\u0000\u0000paid by multisig', encrypted: false },
        send_mode: SendMode.PAY_GAS_SEPARATELY,
      }),
    ]);
    expect((await v3(`/multisig/orders?address=${encodeURIComponent(order.toString())}`)).body['orders']).toEqual([expect.objectContaining({ address: raw(order), actions: null })]);
    expect(await v3('/multisig/orders?parse_actions=true')).toEqual({ status: 422, body: { error: 'At least one of address or multisig_address should be specified' } });
  });

  it('classifies the order creation, the approval and the execution as toncenter does', async () => {
    const types = (await actionsOf(order)).map((a) => a['type']);
    expect(types).toEqual(expect.arrayContaining(['multisig_create_order', 'multisig_approve', 'multisig_execute']));
    const all = await actionsOf(order);
    const create = all.find((a) => a['type'] === 'multisig_create_order')!;
    expect(create['details']).toMatchObject({
      query_id: '11',
      order_seqno: '0',
      is_created_by_signer: true,
      is_signed_by_creator: true,
      creator_index: 0,
      expiration_date: expirationDate,
      source: raw(wallets[0]!),
      destination: raw(multisig),
      destination_order: raw(order),
    });
    const approve = all.find((a) => a['type'] === 'multisig_approve')!;
    expect(approve).toMatchObject({ success: true, details: { signer_index: 1, exit_code: 0, source: raw(wallets[1]!), destination: raw(order) } });
    const execute = all.find((a) => a['type'] === 'multisig_execute')!;
    expect(execute).toMatchObject({ success: true, details: expect.objectContaining({ query_id: '12', order_seqno: '0', approvals_num: 2, source: raw(order), destination: raw(multisig) }) });
    // The payment the multisig sent stays its own action (a ton_transfer with the comment).
    const paid = (await actionsOf(wallets[2]!)).find((a) => a['type'] === 'ton_transfer' && (a['details'] as Json)['comment'] === 'paid by multisig');
    expect(paid?.['details']).toMatchObject({ source: raw(multisig), destination: raw(wallets[2]!), value: payment.toString() });
    // A v1 client is shown the steps instead (ton-index-go's ancestor_type filter): the order's init, the approval and its answer, the execute.
    const v1 = await actionsOf(order, 'v1');
    expect(v1.map((a) => a['type'])).not.toContain('multisig_approve');
    expect(v1.filter((a) => a['type'] === 'call_contract').map((a) => (a['details'] as Json)['opcode'])).toEqual(
      expect.arrayContaining(['0x9c73fba2', '0xa762230f', '0x82609bf6', '0x75097f5d']),
    );
    expect(v1.every((a) => !('ancestor_type' in a))).toBe(true);
  });

  it('lists the vesting contract with what get_vesting_data gives and its whitelist', async () => {
    const data = await getMethod(vesting, 'get_vesting_data');
    const { status, body } = await v3(`/vesting?contract_address=${encodeURIComponent(vesting.toString())}`);
    expect(status).toBe(200);
    expect(body['vesting_contracts']).toEqual([
      {
        address: raw(vesting),
        start_time: Number(v2Int(data[0])),
        total_duration: Number(v2Int(data[1])),
        unlock_period: Number(v2Int(data[2])),
        cliff_duration: Number(v2Int(data[3])),
        total_amount: v2Int(data[4]).toString(),
        sender_address: raw(wallets[0]!),
        owner_address: raw(wallets[1]!),
        whitelist: [raw(wallets[2]!)],
      },
    ]);
    expect(v2Int(data[0])).toBe(BigInt(vestingStart));
    expect(v2Int(data[4])).toBe(vestingAmount);
    const byWallet = (q: string) => v3(`/vesting?${q}`).then((r) => (r.body['vesting_contracts'] as Json[]).map((v) => v['address']));
    expect(await byWallet(`wallet_address=${raw(wallets[1]!)}`)).toEqual([raw(vesting)]);
    expect(await byWallet(`wallet_address=${raw(wallets[2]!)}`)).toEqual([]);
    expect(await byWallet(`wallet_address=${raw(wallets[2]!)}&check_whitelist=true`)).toEqual([raw(vesting)]);
    expect(await v3('/vesting')).toEqual({ status: 422, body: { error: 'at least one of contract_address or wallet_address is required' } });
    expect(await v3(`/vesting?contract_address=${raw(vesting)}&wallet_address=${raw(wallets[1]!)}`)).toEqual({
      status: 422,
      body: { error: 'only one of contract_address or wallet_address should be specified' },
    });
  });

  it('classifies the whitelist addition and the locked send as toncenter does', async () => {
    const all = await actionsOf(vesting);
    const added = all.find((a) => a['type'] === 'vesting_add_whitelist');
    expect(added).toMatchObject({ success: true, details: { query_id: '13', accounts_added: [raw(wallets[2]!)], source: raw(wallets[0]!), vesting: raw(vesting) } });
    const sent = all.find((a) => a['type'] === 'vesting_send_message');
    expect(sent).toMatchObject({ success: true, details: expect.objectContaining({ query_id: '14', source: raw(wallets[1]!), vesting: raw(vesting), destination: raw(wallets[2]!), amount: toNano('1').toString() }) });
  });

  it('decodes the multisig and vesting bodies', async () => {
    const approve = beginCell().store(storeMultisigApprove({ queryId: 12n, signerIndex: 1 })).endCell().toBoc().toString('base64');
    const whitelist = beginCell().store(storeVestingAddWhitelist({ queryId: 13n, addresses: [wallets[2]!] })).endCell().toBoc().toString('base64');
    const { status, body } = await v3('/decode', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ bodies: [approve, whitelist] }) });
    expect(status).toBe(200);
    const [a, w] = body['bodies'] as Json[];
    expect(a).toMatchObject({ query_id: '12', signer_index: 1 });
    expect(a!['@type']).toBe('multisig_approve');
    expect(w).toMatchObject({ '@type': 'vesting_add_white_list', query_id: '13', addresses: [raw(wallets[2]!)] });
    // The multisig's init of the order, as the chain carried it: its signers and approval on init.
    const init = (await actionsOf(order)).find((a) => a['type'] === 'multisig_create_order')!;
    const messages = await v3(`/messages?direction=in&destination=${raw(order)}&opcode=0x9c73fba2`);
    const [message] = messages.body['messages'] as Json[];
    const decoded = await v3(`/decode?bodies=${encodeURIComponent((message!['message_content'] as Json)['body'] as string)}`);
    expect((decoded.body['bodies'] as Json[])[0]).toMatchObject({
      '@type': 'multisig_order_init',
      query_id: '11',
      threshold: 2,
      signers: [raw(wallets[0]!), raw(wallets[1]!)],
      expiration_date: expirationDate,
      order: (init['details'] as Json)['order_boc'],
      approve_on_init: true,
      signer_index: 0,
    });
  });
});
