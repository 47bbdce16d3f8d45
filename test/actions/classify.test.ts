import { createHash } from 'node:crypto';
import { Address, beginCell, Cell, internal, storeMessageRelaxed } from '@ton/core';
import {
  actionId,
  classifyTrace,
  EMPTY_DIRECTORY,
  expandActionTypes,
  selectActions,
  type TokenDirectory,
  type TraceMessage,
  type TraceTransaction,
} from '../../src/actions';
import {
  storeDnsChangeRecord,
  storeExcesses,
  storeJettonBurn,
  storeJettonBurnNotification,
  storeJettonInternalTransfer,
  storeJettonMint,
  storeJettonTransfer,
  storeJettonTransferNotification,
  storeMultisigApprove,
  storeMultisigExecute,
  storeMultisigNewOrder,
  storeMultisigOrderInit,
  storeVestingAddWhitelist,
  storeVestingSendMessage,
  storeNftOwnershipAssigned,
  storeNftTransfer,
  storeQueryIdOnly,
  storeTextComment,
  OP,
} from '../../src/tlb';

/**
 * Classification cases written from the facts of toncenter's classifier tests
 * (indexer/tests/test_cases in toncenter/ton-indexer: which messages make which action, which
 * accounts and transactions it names, its action_id): traces built here message by message.
 */

const addr = (n: number, wc = 0) => `${wc}:${n.toString(16).padStart(2, '0').repeat(32).toUpperCase()}`;
const address = (raw: string) => Address.parse(raw);
const hash = (label: string) => createHash('sha256').update(label).digest('base64');

const WALLET_A = addr(0x0a);
const WALLET_B = addr(0x0b);
const JW_A = addr(0x1a);
const JW_B = addr(0x1b);
const MASTER = addr(0x4d);
const ITEM = addr(0x17);
const COLLECTION = addr(0xc0);
const ELECTOR = addr(0x33, -1);

let lt = 1000n;

function message(label: string, source: string | null, destination: string | null, value: bigint | null, body: Cell | null, bounce = true): TraceMessage {
  const opcode = body && body.bits.length >= 32 ? body.beginParse().preloadUint(32) : null;
  return { hash: hash('msg:' + label), source, destination, value, opcode, body, bounce, bounced: false };
}

function tx(label: string, account: string, inMsg: TraceMessage | null, outMsgs: TraceMessage[], extra: Partial<TraceTransaction> = {}): TraceTransaction {
  lt += 10n;
  return {
    hash: hash('tx:' + label),
    lt,
    now: 1_700_000_000 + Number(lt - 1000n) / 10,
    account,
    mcSeqno: 100,
    aborted: false,
    origStatus: 'active',
    endStatus: 'active',
    tickTock: false,
    inMsg,
    outMsgs,
    ...extra,
  };
}

function external(label: string, to: string): TraceMessage {
  return message(label, null, to, null, beginCell().storeUint(0xdeadbeef, 32).endCell());
}

const comment = (text: string) => beginCell().store(storeTextComment({ text: Buffer.from(text) })).endCell();

const directory: TokenDirectory = {
  jettonWallet: (a) =>
    a === JW_A ? { owner: WALLET_A, jetton: MASTER } : a === JW_B ? { owner: WALLET_B, jetton: MASTER } : undefined,
  nftItem: (a) => (a === ITEM ? { index: '7', collection: COLLECTION } : undefined),
};

describe('action classifier', () => {
  test('a TON transfer with a comment: one ton_transfer naming both wallets and both transactions', () => {
    const ext = external('t1', WALLET_A);
    const transfer = message('t1-transfer', WALLET_A, WALLET_B, 1_500_000_000n, comment('for coffee'));
    const t1 = tx('t1', WALLET_A, ext, [transfer]);
    const t2 = tx('t2', WALLET_B, transfer, []);
    const actions = classifyTrace({ traceId: t1.hash, externalHash: ext.hash, transactions: [t2, t1] }, EMPTY_DIRECTORY);
    expect(actions).toHaveLength(1);
    const [a] = actions;
    expect(a!.type).toBe('ton_transfer');
    expect(a!.details).toEqual({ source: WALLET_A, destination: WALLET_B, value: '1500000000', value_extra_currencies: {}, comment: 'for coffee', encrypted: false });
    expect(new Set(a!.transactions)).toEqual(new Set([t1.hash, t2.hash]));
    expect(a!.accounts).toEqual([WALLET_A, WALLET_B].sort());
    // action_id: sha256 over the base64 message hash followed by the type (toncenter's _calc_action_id).
    expect(a!.action_id).toBe(createHash('sha256').update(transfer.hash + 'ton_transfer').digest('base64'));
    expect(a!.action_id).toBe(actionId(transfer.hash, 'ton_transfer'));
    expect(a!.trace_external_hash).toBe(ext.hash);
    expect(a!.start_lt).toBe(t2.lt.toString());
    expect(a!.trace_end_lt).toBe(t2.lt.toString());
    expect(a!.success).toBe(true);
  });

  function jettonTransferTrace(withNotify = true) {
    const payload = comment('order 42');
    const ext = external('j1', WALLET_A);
    const transferBody = beginCell()
      .store(storeJettonTransfer({ queryId: 31n, amount: 500n, destination: address(WALLET_B), responseDestination: address(WALLET_A), customPayload: null, forwardTonAmount: 1n, forwardPayload: { inRef: true, cell: payload } }))
      .endCell();
    const m1 = message('j-transfer', WALLET_A, JW_A, 50_000_000n, transferBody);
    const internalBody = beginCell()
      .store(storeJettonInternalTransfer({ queryId: 31n, amount: 500n, from: address(WALLET_A), responseAddress: address(WALLET_A), forwardTonAmount: 1n, forwardPayload: { inRef: true, cell: payload } }))
      .endCell();
    const m2 = message('j-internal', JW_A, JW_B, 40_000_000n, internalBody);
    const notifyBody = beginCell().store(storeJettonTransferNotification({ queryId: 31n, amount: 500n, sender: address(WALLET_A), forwardPayload: { inRef: true, cell: payload } })).endCell();
    const m3 = message('j-notify', JW_B, WALLET_B, 1n, notifyBody, false);
    const m4 = message('j-excess', JW_B, WALLET_A, 30_000_000n, beginCell().store(storeExcesses({ queryId: 31n })).endCell(), false);
    const t1 = tx('j1', WALLET_A, ext, [m1]);
    const t2 = tx('j2', JW_A, m1, [m2]);
    const t3 = tx('j3', JW_B, m2, withNotify ? [m3, m4] : [m4]);
    const t4 = tx('j4', WALLET_B, m3, []);
    const t5 = tx('j5', WALLET_A, m4, []);
    const transactions = withNotify ? [t1, t2, t3, t4, t5] : [t1, t2, t3, t5];
    return { trace: { traceId: t1.hash, externalHash: ext.hash, transactions }, m1, payload, txs: transactions };
  }

  test('a jetton transfer (transfer → internal_transfer → notification + excesses) is one jetton_transfer', () => {
    const { trace, m1, payload, txs } = jettonTransferTrace();
    const actions = classifyTrace(trace, directory);
    expect(actions.map((a) => a.type)).toEqual(['jetton_transfer']);
    const [a] = actions;
    expect(a!.details).toEqual({
      asset: MASTER,
      sender: WALLET_A,
      receiver: WALLET_B,
      sender_jetton_wallet: JW_A,
      receiver_jetton_wallet: JW_B,
      amount: '500',
      comment: 'order 42',
      is_encrypted_comment: false,
      query_id: '31',
      response_destination: WALLET_A,
      custom_payload: null,
      forward_payload: payload.toBoc().toString('base64'),
      forward_amount: '1',
    });
    expect(a!.action_id).toBe(actionId(m1.hash, 'jetton_transfer'));
    expect(new Set(a!.transactions)).toEqual(new Set(txs.map((t) => t.hash)));
    expect(a!.accounts).toEqual([JW_A, JW_B, WALLET_A, WALLET_B].sort());
  });

  test('without detection the jetton transfer keeps the named receiver and an unknown asset', () => {
    const { trace } = jettonTransferTrace(false);
    const [a] = classifyTrace(trace, EMPTY_DIRECTORY);
    expect(a!.type).toBe('jetton_transfer');
    expect(a!.details['asset']).toBeNull();
    expect(a!.details['receiver']).toBe(WALLET_B);
  });

  test('a failed internal_transfer makes the jetton_transfer unsuccessful', () => {
    const { trace } = jettonTransferTrace();
    const txs = trace.transactions.map((t) => (t.account === JW_B ? { ...t, aborted: true } : t));
    const [a] = classifyTrace({ ...trace, transactions: txs }, directory);
    expect(a!.success).toBe(false);
  });

  test('jetton burn (burn → burn_notification → excesses)', () => {
    const ext = external('b1', WALLET_A);
    const m1 = message('b-burn', WALLET_A, JW_A, 50_000_000n, beginCell().store(storeJettonBurn({ queryId: 5n, amount: 70n, responseDestination: address(WALLET_A), customPayload: null })).endCell());
    const m2 = message('b-note', JW_A, MASTER, 40_000_000n, beginCell().store(storeJettonBurnNotification({ queryId: 5n, amount: 70n, sender: address(WALLET_A), responseDestination: address(WALLET_A) })).endCell());
    const m3 = message('b-excess', MASTER, WALLET_A, 30_000_000n, beginCell().store(storeExcesses({ queryId: 5n })).endCell(), false);
    const t1 = tx('b1', WALLET_A, ext, [m1]);
    const t2 = tx('b2', JW_A, m1, [m2]);
    const t3 = tx('b3', MASTER, m2, [m3]);
    const t4 = tx('b4', WALLET_A, m3, []);
    const actions = classifyTrace({ traceId: t1.hash, externalHash: ext.hash, transactions: [t1, t2, t3, t4] }, directory);
    expect(actions.map((a) => a.type)).toEqual(['jetton_burn']);
    expect(actions[0]!.details).toEqual({ owner: WALLET_A, owner_jetton_wallet: JW_A, asset: MASTER, amount: '70' });
    expect(actions[0]!.transactions).toHaveLength(4);
  });

  test('jetton mint (mint → internal_transfer → notification) with the new wallet deployed', () => {
    const ext = external('m1', WALLET_A);
    const internalBody = beginCell()
      .store(storeJettonInternalTransfer({ queryId: 0n, amount: 1_000_000n, from: address(MASTER), responseAddress: address(WALLET_A), forwardTonAmount: 0n, forwardPayload: { inRef: false, cell: Cell.EMPTY } }))
      .endCell();
    const m1 = message('m-mint', WALLET_A, MASTER, 100_000_000n, beginCell().store(storeJettonMint({ queryId: 0n, toAddress: address(WALLET_B), tonAmount: 50_000_000n, masterMsg: internalBody })).endCell());
    const m2 = message('m-internal', MASTER, JW_B, 50_000_000n, internalBody);
    const m3 = message('m-excess', JW_B, WALLET_A, 40_000_000n, beginCell().store(storeExcesses({ queryId: 0n })).endCell(), false);
    const t1 = tx('m1', WALLET_A, ext, [m1]);
    const t2 = tx('m2', MASTER, m1, [m2]);
    const t3 = tx('m3', JW_B, m2, [m3], { origStatus: 'nonexist', endStatus: 'active' });
    const t4 = tx('m4', WALLET_A, m3, []);
    const actions = classifyTrace({ traceId: t1.hash, externalHash: ext.hash, transactions: [t1, t2, t3, t4] }, directory);
    expect(actions.map((a) => a.type)).toEqual(['jetton_mint', 'contract_deploy']);
    expect(actions[0]!.details).toEqual({ asset: MASTER, receiver: WALLET_B, receiver_jetton_wallet: JW_B, amount: '1000000', ton_amount: '50000000' });
    expect(actions[1]!.details).toEqual({ opcode: '0x178d4519', source: MASTER, destination: JW_B, value: '50000000' });
    expect(actions[1]!.action_id).toBe(actionId(m2.hash, 'contract_deploy'));
  });

  test('nft transfer (transfer → ownership_assigned + excesses) of a known item; an unknown item stays a call', () => {
    const ext = external('n1', WALLET_A);
    const m1 = message('n-transfer', WALLET_A, ITEM, 100_000_000n, beginCell().store(storeNftTransfer({ queryId: 9n, newOwner: address(WALLET_B), responseDestination: address(WALLET_A), customPayload: null, forwardAmount: 1n, forwardPayload: { inRef: false, cell: comment('gift') } })).endCell());
    const m2 = message('n-assigned', ITEM, WALLET_B, 1n, beginCell().store(storeNftOwnershipAssigned({ queryId: 9n, prevOwner: address(WALLET_A), forwardPayload: { inRef: false, cell: comment('gift') } })).endCell());
    const m3 = message('n-excess', ITEM, WALLET_A, 50_000_000n, beginCell().store(storeExcesses({ queryId: 9n })).endCell(), false);
    const t1 = tx('n1', WALLET_A, ext, [m1]);
    const t2 = tx('n2', ITEM, m1, [m2, m3]);
    const t3 = tx('n3', WALLET_B, m2, []);
    const t4 = tx('n4', WALLET_A, m3, []);
    const trace = { traceId: t1.hash, externalHash: ext.hash, transactions: [t1, t2, t3, t4] };
    const actions = classifyTrace(trace, directory);
    expect(actions.map((a) => a.type)).toEqual(['nft_transfer']);
    expect(actions[0]!.details).toMatchObject({ nft_collection: COLLECTION, nft_item: ITEM, nft_item_index: '7', old_owner: WALLET_A, new_owner: WALLET_B, is_purchase: false, query_id: '9', comment: 'gift', is_encrypted_comment: false, forward_amount: '1' });
    const generic = classifyTrace(trace, EMPTY_DIRECTORY);
    expect(generic.map((a) => a.type)).toEqual(['call_contract', 'call_contract', 'call_contract']);
    expect(generic[0]!.details).toEqual({ opcode: '0x5fcc3d14', source: WALLET_A, destination: ITEM, value: '100000000', extra_currencies: {} });
  });

  test('nft mint: the collection deploys a known item', () => {
    const ext = external('nm1', WALLET_A);
    const m1 = message('nm-deploy', WALLET_A, COLLECTION, 100_000_000n, beginCell().storeUint(1, 32).storeUint(0, 64).storeUint(7, 64).endCell());
    const m2 = message('nm-item', COLLECTION, ITEM, 50_000_000n, beginCell().storeAddress(address(WALLET_B)).endCell());
    const t1 = tx('nm1', WALLET_A, ext, [m1]);
    const t2 = tx('nm2', COLLECTION, m1, [m2]);
    const t3 = tx('nm3', ITEM, m2, [], { origStatus: 'nonexist', endStatus: 'active' });
    const actions = classifyTrace({ traceId: t1.hash, externalHash: ext.hash, transactions: [t1, t2, t3] }, directory);
    expect(actions.map((a) => a.type)).toEqual(['call_contract', 'nft_mint', 'contract_deploy']);
    expect(actions[1]!.details).toEqual({ owner: COLLECTION, nft_item: ITEM, nft_collection: COLLECTION, nft_item_index: '7' });
  });

  test('dns: change, delete, renew (zero key)', () => {
    const cases: [Cell | null, Buffer, string][] = [
      [beginCell().storeUint(0x9fd3, 16).storeAddress(address(WALLET_B)).storeUint(0, 8).endCell(), Buffer.alloc(32, 1), 'change_dns'],
      [null, Buffer.alloc(32, 1), 'delete_dns'],
      [null, Buffer.alloc(32), 'renew_dns'],
    ];
    for (const [value, key, type] of cases) {
      const ext = external('d' + type, WALLET_A);
      const m1 = message('d-' + type, WALLET_A, ITEM, 50_000_000n, beginCell().store(storeDnsChangeRecord({ queryId: 1n, key, value })).endCell());
      const t1 = tx('d1' + type, WALLET_A, ext, [m1]);
      const t2 = tx('d2' + type, ITEM, m1, []);
      const actions = classifyTrace({ traceId: t1.hash, externalHash: ext.hash, transactions: [t1, t2] }, directory);
      expect(actions.map((a) => a.type)).toEqual([type]);
      if (type === 'change_dns') {
        expect(actions[0]!.details).toMatchObject({ key: key.toString('hex'), source: WALLET_A, asset: ITEM, nft_collection: COLLECTION });
        expect(actions[0]!.details['value']).toMatchObject({ sum_type: 'DNSSmcAddress', dns_smc_address: WALLET_B, flags: 0 });
      }
      if (type === 'delete_dns') expect(actions[0]!.details).toEqual({ hash: key.toString('hex'), source: WALLET_A, asset: ITEM, nft_collection: COLLECTION });
    }
  });

  describe('dns_purchase and dns_release (v3; toncenter blocks/auction.py)', () => {
    const DNS_ROOT = '0:B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF';
    const DNS_CODE_HASH = 'i1/8nr/TkGTY1fVuRlnIJrt1k5I/XKSHKL5NYK9vUfk=';
    const DNS_ITEM = addr(0xd1);
    const OTHER_ITEM = addr(0xd2);
    const fillUp = (queryId: bigint | null) => {
      const b = beginCell().storeUint(0x370fec51, 32);
      return (queryId === null ? b : b.storeUint(queryId, 64)).endCell();
    };
    const dnsDirectory = (info: { collection: string; codeHash?: string | null }): TokenDirectory => ({
      jettonWallet: () => undefined,
      nftItem: (a) => (a === DNS_ITEM ? { index: '99', ...info } : a === OTHER_ITEM ? { index: '1', collection: COLLECTION, codeHash: 'x' } : undefined),
    });
    /** The winner's first call with an opcode after the auction: the item pays the bid to the root with fill_up. */
    function claim(label: string, item: string, queryId: bigint | null, aborted = false) {
      const ext = external(label, WALLET_B);
      const call = message(label + '-call', WALLET_B, item, 100_000_000n, beginCell().store(storeDnsChangeRecord({ queryId: 3n, key: Buffer.alloc(32, 5), value: beginCell().storeUint(0x9fd3, 16).storeAddress(address(WALLET_B)).storeUint(0, 8).endCell() })).endCell());
      const pay = message(label + '-fill', item, DNS_ROOT, 2_900_000_000n, fillUp(queryId), false);
      const t1 = tx(label + '1', WALLET_B, ext, [call]);
      const t2 = tx(label + '2', item, call, [pay]);
      const t3 = tx(label + '3', DNS_ROOT, pay, [], { aborted });
      return { ext, call, pay, transactions: [t1, t2, t3], t3 };
    }

    test('a fill-up from a .ton item after a call to it: dns_purchase for the caller, the call its own change_dns', () => {
      const c = claim('dp', DNS_ITEM, 3n);
      const actions = classifyTrace({ traceId: c.transactions[0]!.hash, externalHash: c.ext.hash, transactions: c.transactions }, dnsDirectory({ collection: DNS_ROOT }));
      expect(actions.map((a) => a.type)).toEqual(['change_dns', 'dns_purchase', 'call_contract']);
      const purchase = actions[1]!;
      expect(purchase.details).toEqual({
        nft_collection: DNS_ROOT,
        nft_item: DNS_ITEM,
        nft_item_index: '99',
        new_owner: WALLET_B,
        price: '2900000000',
        query_id: '3',
        payout_amount: '2900000000',
      });
      expect(purchase.action_id).toBe(actionId(c.pay.hash, 'dns_purchase'));
      // Its transactions: the root's, and the item's that sent the fill-up (the initiating one).
      expect(new Set(purchase.transactions)).toEqual(new Set([c.transactions[1]!.hash, c.t3.hash]));
      expect(purchase.accounts).toEqual([DNS_ROOT, DNS_ITEM, WALLET_B].sort());
      // Its step for an older client: the fill-up call, marked with it as ancestor.
      expect(actions[2]).toMatchObject({ type: 'call_contract', ancestor_type: ['dns_purchase'], details: expect.objectContaining({ opcode: '0x370fec51' }) });
      expect(selectActions(actions, expandActionTypes(['v1'])).map((a) => a.type)).toEqual(['change_dns', 'call_contract']);
    });

    test('a .ton item is told by its code hash too; a query id is optional; a failed fill-up fails the purchase', () => {
      const c = claim('dp2', DNS_ITEM, null, true);
      const actions = classifyTrace({ traceId: c.transactions[0]!.hash, externalHash: c.ext.hash, transactions: c.transactions }, dnsDirectory({ collection: COLLECTION, codeHash: DNS_CODE_HASH }));
      const purchase = actions.find((a) => a.type === 'dns_purchase')!;
      expect(purchase.details).toMatchObject({ nft_collection: COLLECTION, query_id: null });
      expect(purchase.success).toBe(false);
    });

    test('an item of another collection and code, or an unknown one, makes no purchase', () => {
      for (const item of [OTHER_ITEM, addr(0xd3)]) {
        const c = claim('dp3' + item, item, 3n);
        const actions = classifyTrace({ traceId: c.transactions[0]!.hash, externalHash: c.ext.hash, transactions: c.transactions }, dnsDirectory({ collection: DNS_ROOT }));
        expect(actions.map((a) => a.type)).not.toContain('dns_purchase');
      }
    });

    test('a bid on a .ton item that returns the last bid: auction_bid, and the returned bid auction_outbid', () => {
      const ext = external('ab', WALLET_B);
      const bid = message('ab-bid', WALLET_B, DNS_ITEM, 3_000_000_000n, null);
      const back = message('ab-back', DNS_ITEM, WALLET_A, 1_980_000_000n, beginCell().storeUint(0x557cea20, 32).storeUint(77, 64).endCell(), false);
      const t1 = tx('ab1', WALLET_B, ext, [bid]);
      const t2 = tx('ab2', DNS_ITEM, bid, [back]);
      const t3 = tx('ab3', WALLET_A, back, []);
      const actions = classifyTrace({ traceId: t1.hash, externalHash: ext.hash, transactions: [t1, t2, t3] }, dnsDirectory({ collection: DNS_ROOT }));
      expect(actions.map((a) => a.type)).toEqual(['auction_bid', 'auction_outbid', 'call_contract']);
      expect(actions[0]!.details).toEqual({ amount: '3000000000', bidder: WALLET_B, auction: DNS_ITEM, nft_item: DNS_ITEM, nft_collection: DNS_ROOT, nft_item_index: '99' });
      expect(actions[1]!.details).toEqual({ auction_address: DNS_ITEM, bidder: WALLET_A, new_bidder: WALLET_B, nft_item: DNS_ITEM, nft_collection: DNS_ROOT, amount: '1980000000' });
      expect(new Set(actions[1]!.transactions)).toEqual(new Set([t2.hash, t3.hash]));
      expect(actions[2]).toMatchObject({ ancestor_type: ['auction_outbid'], details: expect.objectContaining({ opcode: '0x557cea20' }) });
      // A transfer to the item that returns nothing (a first bid, an owner's fill-up) is no bid.
      const lone = message('ab-lone', WALLET_B, DNS_ITEM, 1n, null);
      const t4 = tx('ab4', WALLET_B, external('ab4', WALLET_B), [lone]);
      const t5 = tx('ab5', DNS_ITEM, lone, []);
      expect(classifyTrace({ traceId: t4.hash, externalHash: null, transactions: [t4, t5] }, dnsDirectory({ collection: DNS_ROOT })).map((a) => a.type)).toEqual(['ton_transfer']);
    });

    test('dns_balance_release to a .ton item: dns_release; the item paying the old owner stays a call', () => {
      const ext = external('dr', WALLET_A);
      const release = message('dr-release', WALLET_A, DNS_ITEM, 1_000_000_000n, beginCell().storeUint(OP.dnsBalanceRelease, 32).storeUint(8, 64).endCell());
      const payOld = message('dr-pay', DNS_ITEM, WALLET_B, 500_000_000n, beginCell().storeUint(OP.dnsBalanceRelease, 32).storeUint(8, 64).endCell(), false);
      const t1 = tx('dr1', WALLET_A, ext, [release]);
      const t2 = tx('dr2', DNS_ITEM, release, [payOld]);
      const t3 = tx('dr3', WALLET_B, payOld, []);
      const actions = classifyTrace({ traceId: t1.hash, externalHash: ext.hash, transactions: [t1, t2, t3] }, dnsDirectory({ collection: DNS_ROOT }));
      expect(actions.map((a) => a.type)).toEqual(['dns_release', 'call_contract', 'call_contract']);
      expect(actions[0]!.details).toEqual({ query_id: '8', source: WALLET_A, nft_item: DNS_ITEM, nft_collection: DNS_ROOT, nft_item_index: '99', value: '1000000000' });
      expect(actions[0]!.action_id).toBe(actionId(release.hash, 'dns_release'));
      expect(actions[1]).toMatchObject({ ancestor_type: ['dns_release'] });
      expect(actions[2]!.details).toMatchObject({ source: DNS_ITEM, destination: WALLET_B });
      expect(actions[2]!.ancestor_type).toBeUndefined();
    });
  });

  test('election deposit with the elector confirmation; recover without an answer fails', () => {
    const body = beginCell().storeUint(OP.electorNewStake, 32).storeUint(1, 64).storeBuffer(Buffer.alloc(32)).storeUint(0, 32).storeUint(0, 32).storeBuffer(Buffer.alloc(32)).storeRef(beginCell().storeBuffer(Buffer.alloc(64))).endCell();
    const m1 = message('e-stake', WALLET_A, ELECTOR, 10_000_000_000n, body);
    const m2 = message('e-ok', ELECTOR, WALLET_A, 1_000_000_000n, beginCell().store(storeQueryIdOnly({ op: OP.electorNewStakeConfirmation, queryId: 1n })).endCell());
    const ext = external('e1', WALLET_A);
    const t1 = tx('e1', WALLET_A, ext, [m1]);
    const t2 = tx('e2', ELECTOR, m1, [m2]);
    const t3 = tx('e3', WALLET_A, m2, []);
    const [deposit] = classifyTrace({ traceId: t1.hash, externalHash: ext.hash, transactions: [t1, t2, t3] }, directory);
    expect(deposit!.type).toBe('election_deposit');
    expect(deposit!.details).toEqual({ stake_holder: WALLET_A, amount: '10000000000' });
    expect(deposit!.success).toBe(true);
    const r1 = message('e-recover', WALLET_A, ELECTOR, 1_000_000_000n, beginCell().store(storeQueryIdOnly({ op: OP.electorRecoverStakeRequest, queryId: 2n })).endCell());
    const ext2 = external('e4', WALLET_A);
    const t4 = tx('e4', WALLET_A, ext2, [r1]);
    const t5 = tx('e5', ELECTOR, r1, []);
    const [recover] = classifyTrace({ traceId: t4.hash, externalHash: ext2.hash, transactions: [t4, t5] }, directory);
    expect(recover!.type).toBe('election_recover');
    expect(recover!.success).toBe(false);
    expect(recover!.details).toEqual({ stake_holder: WALLET_A });
  });

  test('tick-tock: its own action keyed by the transaction hash; a lone external: unknown', () => {
    const t = tx('tt', ELECTOR, null, [], { tickTock: true });
    const [a] = classifyTrace({ traceId: t.hash, externalHash: null, transactions: [t] }, directory);
    expect(a!.type).toBe('tick_tock');
    expect(a!.details).toEqual({});
    expect(a!.action_id).toBe(actionId(t.hash, 'tick_tock'));
    const ext = external('lonely', WALLET_A);
    const lonely = tx('lonely', WALLET_A, ext, []);
    const [u] = classifyTrace({ traceId: lonely.hash, externalHash: ext.hash, transactions: [lonely] }, directory);
    expect(u!.type).toBe('unknown');
    expect(u!.action_id).toBe(lonely.hash);
  });

  test('a malformed body of a known opcode is a generic call, never a failure', () => {
    const ext = external('bad', WALLET_A);
    const m1 = message('bad-transfer', WALLET_A, JW_A, 1n, beginCell().storeUint(OP.jettonTransfer, 32).storeUint(1, 8).endCell());
    const t1 = tx('bad1', WALLET_A, ext, [m1]);
    const t2 = tx('bad2', JW_A, m1, [], { aborted: true });
    const actions = classifyTrace({ traceId: t1.hash, externalHash: ext.hash, transactions: [t1, t2] }, directory);
    expect(actions.map((a) => a.type)).toEqual(['call_contract']);
    expect(actions[0]!.success).toBe(false);
  });
});

/**
 * Multisig v2 and vesting (toncenter's indexer/events/blocks/multisig.py and vesting.py): the
 * message chains of ton-blockchain/multisig-contract-v2 and vesting-contract.
 */
describe('multisig and vesting actions', () => {
  const MULTISIG = addr(0x3a);
  const ORDER = addr(0x3b);
  const VESTING = addr(0x3c);
  const signers = [WALLET_A, WALLET_B];
  const withOrder: TokenDirectory = { ...directory, multisigOrder: (a) => (a === ORDER ? { signers } : undefined) };
  const LATEST = expandActionTypes(['latest']);
  /** What a client of the latest version sees (the steps of typed actions are hidden). */
  const latest = (actions: ReturnType<typeof classifyTrace>) => selectActions(actions, LATEST);
  const orderCell = beginCell().storeUint(0x1234, 16).endCell();

  function createOrderTrace() {
    const ext = external('mo', WALLET_A);
    const newOrder = beginCell().store(storeMultisigNewOrder({ queryId: 5n, orderSeqno: 0n, signer: true, index: 0, expirationDate: 1_800_000_000, order: orderCell })).endCell();
    const m1 = message('mo-new', WALLET_A, MULTISIG, 200_000_000n, newOrder);
    const init = beginCell()
      .store(storeMultisigOrderInit({ queryId: 5n, threshold: 2, signers: beginCell().endCell(), expirationDate: 1_800_000_000, order: orderCell, approveOnInit: true, signerIndex: 0 }))
      .endCell();
    const m2 = message('mo-init', MULTISIG, ORDER, 150_000_000n, init);
    const t1 = tx('mo1', WALLET_A, ext, [m1]);
    const t2 = tx('mo2', MULTISIG, m1, [m2]);
    const t3 = tx('mo3', ORDER, m2, [], { origStatus: 'nonexist' });
    return { trace: { traceId: t1.hash, externalHash: ext.hash, transactions: [t1, t2, t3] }, m1, t2, t3 };
  }

  test('new_order then the order init: multisig_create_order with the order and its signers; a deploy beside it', () => {
    const { trace, m1, t2, t3 } = createOrderTrace();
    const all = classifyTrace(trace, withOrder);
    // toncenter's serialize_blocks: a type newer than v1 is followed by its steps, marked with it.
    expect(all.map((a) => [a.type, a.ancestor_type])).toEqual([
      ['multisig_create_order', undefined],
      ['call_contract', ['multisig_create_order']],
      ['call_contract', ['multisig_create_order']],
      ['contract_deploy', undefined],
    ]);
    const actions = latest(all);
    expect(actions.map((a) => a.type)).toEqual(['multisig_create_order', 'contract_deploy']);
    const [a] = actions;
    expect(a!.details).toEqual({
      query_id: '5',
      order_seqno: '0',
      is_created_by_signer: true,
      is_signed_by_creator: true,
      creator_index: 0,
      expiration_date: 1_800_000_000,
      order_boc: orderCell.toBoc().toString('base64'),
      source: WALLET_A,
      destination: MULTISIG,
      destination_order: ORDER,
    });
    expect(a!.action_id).toBe(actionId(m1.hash, 'multisig_create_order'));
    expect(a!.transactions).toEqual(expect.arrayContaining([t2.hash, t3.hash]));
    expect(a!.accounts).toEqual([WALLET_A, WALLET_B, MULTISIG, ORDER].sort());
    // An order the index has not detected: toncenter's matcher gives up, the calls stay generic.
    expect(classifyTrace(trace, directory).map((x) => x.type)).toEqual(['call_contract', 'call_contract', 'contract_deploy']);
    // A v1 client sees the steps instead of the v2 type (ton-index-go's ancestor filter).
    expect(selectActions(all, expandActionTypes(['v1'])).map((x) => [x.type, x.details['opcode']])).toEqual([
      ['call_contract', '0xf718510f'],
      ['call_contract', '0x9c73fba2'],
      ['contract_deploy', '0x9c73fba2'],
    ]);
  });

  test('approve by opcode (accepted) and by comment (rejected with its exit code); execute from the order', () => {
    const ext = external('ap', WALLET_B);
    const m1 = message('ap-req', WALLET_B, ORDER, 100_000_000n, beginCell().store(storeMultisigApprove({ queryId: 6n, signerIndex: 1 })).endCell());
    const m2 = message('ap-ok', ORDER, WALLET_B, 90_000_000n, beginCell().storeUint(OP.multisigApproveAccepted, 32).storeUint(6, 64).endCell(), false);
    const execBody = beginCell()
      .store(storeMultisigExecute({ queryId: 6n, orderSeqno: 0n, expirationDate: 1_800_000_000, approvalsNum: 2, signersHash: Buffer.alloc(32, 7), order: orderCell }))
      .endCell();
    const m3 = message('ap-exec', ORDER, MULTISIG, 80_000_000n, execBody);
    const t1 = tx('ap1', WALLET_B, ext, [m1]);
    const t2 = tx('ap2', ORDER, m1, [m2, m3]);
    const t3 = tx('ap3', WALLET_B, m2, []);
    const t4 = tx('ap4', MULTISIG, m3, []);
    const actions = latest(classifyTrace({ traceId: t1.hash, externalHash: ext.hash, transactions: [t1, t2, t3, t4] }, withOrder));
    expect(actions.map((a) => a.type)).toEqual(['multisig_approve', 'multisig_execute']);
    expect(actions[0]!.details).toEqual({ signer_index: 1, exit_code: 0, source: WALLET_B, destination: ORDER });
    expect(actions[0]!.success).toBe(true);
    expect(actions[1]!.details).toEqual({
      query_id: '6',
      order_seqno: '0',
      expiration_date: 1_800_000_000,
      approvals_num: 2,
      signers_hash: Buffer.alloc(32, 7).toString('base64'),
      order_boc: orderCell.toBoc().toString('base64'),
      source: ORDER,
      destination: MULTISIG,
    });

    const ext2 = external('ap-c', WALLET_A);
    const c1 = message('ap-c-req', WALLET_A, ORDER, 100_000_000n, comment('approve'));
    const c2 = message('ap-c-no', ORDER, WALLET_A, 90_000_000n, beginCell().storeUint(OP.multisigApproveRejected, 32).storeUint(0, 64).storeUint(107, 32).endCell(), false);
    const u1 = tx('ap-c1', WALLET_A, ext2, [c1]);
    const u2 = tx('ap-c2', ORDER, c1, [c2]);
    const u3 = tx('ap-c3', WALLET_A, c2, []);
    const rejected = latest(classifyTrace({ traceId: u1.hash, externalHash: ext2.hash, transactions: [u1, u2, u3] }, withOrder));
    expect(rejected.map((a) => a.type)).toEqual(['multisig_approve']);
    expect(rejected[0]!.details).toEqual({ signer_index: -1, exit_code: 107, source: WALLET_A, destination: ORDER });
    expect(rejected[0]!.success).toBe(false);
  });

  test('vesting send and add_whitelist with their responses', () => {
    const inner = beginCell().store(storeMessageRelaxed(internal({ to: address(WALLET_B), value: 3_000_000_000n, bounce: false }))).endCell();
    const ext = external('vs', WALLET_A);
    const m1 = message('vs-req', WALLET_A, VESTING, 100_000_000n, beginCell().store(storeVestingSendMessage({ queryId: 8n, sendMode: 3, message: inner })).endCell());
    const m2 = message('vs-out', VESTING, WALLET_B, 3_000_000_000n, null);
    const m3 = message('vs-resp', VESTING, WALLET_A, 90_000_000n, beginCell().storeUint(OP.vestingSendMessageResponse, 32).storeUint(8, 64).endCell(), false);
    const t1 = tx('vs1', WALLET_A, ext, [m1]);
    const t2 = tx('vs2', VESTING, m1, [m2, m3]);
    const t3 = tx('vs3', WALLET_B, m2, []);
    const t4 = tx('vs4', WALLET_A, m3, []);
    const actions = latest(classifyTrace({ traceId: t1.hash, externalHash: ext.hash, transactions: [t1, t2, t3, t4] }, directory));
    expect(actions.map((a) => a.type)).toEqual(['vesting_send_message', 'ton_transfer']);
    expect(actions[0]!.details).toEqual({ query_id: '8', message_boc: inner.toBoc().toString('base64'), source: WALLET_A, vesting: VESTING, destination: WALLET_B, amount: '3000000000' });
    expect(actions[0]!.transactions).toEqual(expect.arrayContaining([t2.hash, t4.hash]));

    const ext2 = external('vw', WALLET_B);
    const w1 = message('vw-req', WALLET_B, VESTING, 100_000_000n, beginCell().store(storeVestingAddWhitelist({ queryId: 9n, addresses: [address(WALLET_A), address(MULTISIG)] })).endCell());
    const w2 = message('vw-resp', VESTING, WALLET_B, 90_000_000n, beginCell().storeUint(OP.vestingAddWhitelistResponse, 32).storeUint(9, 64).endCell(), false);
    const u1 = tx('vw1', WALLET_B, ext2, [w1]);
    const u2 = tx('vw2', VESTING, w1, [w2]);
    const u3 = tx('vw3', WALLET_B, w2, []);
    const added = latest(classifyTrace({ traceId: u1.hash, externalHash: ext2.hash, transactions: [u1, u2, u3] }, directory));
    expect(added.map((a) => a.type)).toEqual(['vesting_add_whitelist']);
    expect(added[0]!.details).toEqual({ query_id: '9', accounts_added: [WALLET_A, MULTISIG], source: WALLET_B, vesting: VESTING });
    // Without the vesting's response toncenter's matcher does not match.
    expect(classifyTrace({ traceId: u1.hash, externalHash: ext2.hash, transactions: [u1, { ...u2, outMsgs: [] }] }, directory).map((a) => a.type)).toEqual(['call_contract']);
  });
  test('add_whitelist of a masterchain address: the facts of toncenter\'s mainnet case (vesting.yaml, trace 03XZQ1Ck…)', () => {
    // Its vesting, adder and the masterchain account it whitelisted; three transactions (the
    // adder's wallet, the vesting, the response back), accounts the vesting and the adder.
    const vestingMain = '0:E9D864419C6A77FBC1D2EC7AFE840C1C349FCC1D2E19520FC73F547DD1721E9E';
    const adder = '0:FD8B2FC26CB0FE2D27B911FD0409D72DEDA2089C1EA7722D2910EA5354900B2D';
    const added = '-1:ECB7B7B4C200424F8D837AC9E0C5EDCA800A162546CD5706FB86549C0FE03038';
    const ext = external('vm', adder);
    const w1 = message('vm-req', adder, vestingMain, 1_000_000_000n, beginCell().store(storeVestingAddWhitelist({ queryId: 0n, addresses: [address(added)] })).endCell());
    const w2 = message('vm-resp', vestingMain, adder, 990_000_000n, beginCell().storeUint(OP.vestingAddWhitelistResponse, 32).storeUint(0, 64).endCell(), false);
    const u1 = tx('vm1', adder, ext, [w1]);
    const u2 = tx('vm2', vestingMain, w1, [w2]);
    const u3 = tx('vm3', adder, w2, []);
    const [action, ...rest] = classifyTrace({ traceId: u1.hash, externalHash: ext.hash, transactions: [u1, u2, u3] }, directory);
    expect(action).toMatchObject({ type: 'vesting_add_whitelist', success: true, details: { query_id: '0', accounts_added: [added], source: adder, vesting: vestingMain } });
    expect(action!.accounts).toEqual([vestingMain, adder].sort());
    expect(new Set(action!.transactions)).toEqual(new Set([u1.hash, u2.hash, u3.hash]));
    // Its steps follow it, for clients of v1.
    expect(rest.map((a) => [a.type, a.ancestor_type])).toEqual([
      ['call_contract', ['vesting_add_whitelist']],
      ['call_contract', ['vesting_add_whitelist']],
    ]);
  });
});

describe('action type versions', () => {
  test('v1 is always included; shortcuts expand; unknown names are kept as types', () => {
    const v1 = expandActionTypes([]);
    expect(v1.has('jetton_transfer')).toBe(true);
    expect(v1.has('multisig_approve')).toBe(false);
    const latest = expandActionTypes(['latest']);
    expect(latest.has('multisig_approve')).toBe(true);
    expect(latest.has('cocoon_client_withdraw')).toBe(true);
    expect(latest.has('nft_purchase')).toBe(true);
    expect(latest.has('v3')).toBe(false);
    expect(expandActionTypes(['v2']).has('nft_purchase')).toBe(false);
    expect(expandActionTypes(['my_type']).has('my_type')).toBe(true);
  });

  test('selectActions keeps the accepted types', () => {
    const t = tx('sel', ELECTOR, null, [], { tickTock: true });
    const actions = classifyTrace({ traceId: t.hash, externalHash: null, transactions: [t] }, directory);
    expect(selectActions(actions, expandActionTypes(['v1']))).toHaveLength(1);
    expect(selectActions(actions, new Set(['ton_transfer']))).toHaveLength(0);
  });
});
