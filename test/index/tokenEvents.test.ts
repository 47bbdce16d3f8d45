import { Address, beginCell, Cell } from '@ton/core';
import { NO_TOKENS, tokenEvents, type BlockTokens, type ParsedTransaction } from '../../src/indexer';
import { storeJettonBurn, storeJettonTransfer, storeNftTransfer, storeTextComment } from '../../src/tlb';

/**
 * Token events of a block's transactions (pure): which transactions are transfers and burns, and
 * the fields toncenter's worker keeps, on bodies built with the project's TEP storers.
 */

const addr = (byte: number) => new Address(0, Buffer.alloc(32, byte));
const raw = (a: Address) => `0:${a.hash.toString('hex').toUpperCase()}`;
const OWNER = addr(1);
const WALLET = addr(2);
const MASTER = addr(3);
const DEST = addr(4);
const ITEM = addr(5);
const COLLECTION = addr(6);
const comment = beginCell().store(storeTextComment({ text: Buffer.from('hi') })).endCell();

/** A transaction of `account` whose inbound message from `source` carries `body`. */
function tx(account: Address, body: Cell, opts: { source?: string | null; internal?: boolean; aborted?: boolean; lt?: bigint } = {}): ParsedTransaction {
  const slice = body.beginParse();
  const opcode = slice.remainingBits >= 32 ? slice.loadInt(32) : null;
  const hash = Buffer.alloc(32, Number((opts.lt ?? 10n) % 255n));
  const partial = {
    row: { account: raw(account), hash, lt: opts.lt ?? 10n, now: 1000, aborted: opts.aborted ?? false, trace_id: Buffer.alloc(32, 9) },
    address: account,
    inMessage: { row: { source: opts.source === undefined ? raw(OWNER) : opts.source, opcode }, contents: [], internal: opts.internal ?? true, body },
    outMessages: [],
  };
  return partial as unknown as ParsedTransaction;
}

const TOKENS: BlockTokens = {
  ...NO_TOKENS,
  jettonWallets: new Map([[raw(WALLET), { jetton: raw(MASTER) }]]),
  nftItems: new Map([[raw(ITEM), { index: '42', collection: raw(COLLECTION) }]]),
};

const transferBody = (payload: { inRef: boolean; cell: Cell }, custom: Cell | null = null) =>
  beginCell()
    .store(storeJettonTransfer({ queryId: 5n, amount: 700n, destination: DEST, responseDestination: OWNER, customPayload: custom, forwardTonAmount: 3n, forwardPayload: payload }))
    .endCell();

describe('tokenEvents', () => {
  it('reads a jetton transfer of a confirmed wallet with toncenter\'s fields; the payload kept when referenced', () => {
    const custom = beginCell().storeUint(77, 8).endCell();
    const { jettonTransfers, jettonBurns, nftTransfers } = tokenEvents([tx(WALLET, transferBody({ inRef: true, cell: comment }, custom))], TOKENS, 12);
    expect(jettonBurns).toEqual([]);
    expect(nftTransfers).toEqual([]);
    expect(jettonTransfers).toEqual([
      {
        tx_hash: Buffer.alloc(32, 10),
        tx_lt: 10n,
        tx_now: 1000,
        tx_aborted: false,
        mc_seqno: 12,
        trace_id: Buffer.alloc(32, 9),
        query_id: '5',
        amount: '700',
        source: raw(OWNER),
        destination: raw(DEST),
        jetton_wallet_address: raw(WALLET),
        jetton_master_address: raw(MASTER),
        response_destination: raw(OWNER),
        custom_payload: custom.toBoc().toString('base64'),
        forward_ton_amount: '3',
        forward_payload: comment.toBoc().toString('base64'),
      },
    ]);
  });

  it('keeps no inline forward payload (toncenter\'s fetch_maybe_ref) and marks an aborted transaction', () => {
    const [transfer] = tokenEvents([tx(WALLET, transferBody({ inRef: false, cell: comment }), { aborted: true })], TOKENS, 1).jettonTransfers;
    expect(transfer).toMatchObject({ forward_payload: null, custom_payload: null, tx_aborted: true, amount: '700' });
  });

  it('reads a burn, and an NFT transfer of a confirmed item with its index and collection', () => {
    const burn = beginCell().store(storeJettonBurn({ queryId: 8n, amount: 100n, responseDestination: OWNER, customPayload: null })).endCell();
    const nft = beginCell()
      .store(storeNftTransfer({ queryId: 9n, newOwner: DEST, responseDestination: OWNER, customPayload: null, forwardAmount: 1n, forwardPayload: { inRef: true, cell: comment } }))
      .endCell();
    const events = tokenEvents([tx(WALLET, burn, { lt: 20n }), tx(ITEM, nft, { lt: 30n })], TOKENS, 2);
    expect(events.jettonBurns).toEqual([
      expect.objectContaining({ owner: raw(OWNER), jetton_wallet_address: raw(WALLET), jetton_master_address: raw(MASTER), amount: '100', query_id: '8', response_destination: raw(OWNER), custom_payload: null }),
    ]);
    expect(events.nftTransfers).toEqual([
      expect.objectContaining({
        nft_item_address: raw(ITEM),
        nft_item_index: '42',
        nft_collection_address: raw(COLLECTION),
        old_owner: raw(OWNER),
        new_owner: raw(DEST),
        forward_amount: '1',
        forward_payload: comment.toBoc().toString('base64'),
      }),
    ]);
  });

  it('ignores contracts the detection did not confirm, external messages, and bodies that do not parse', () => {
    const stranger = addr(7);
    const truncated = beginCell().storeUint(0x0f8a7ea5, 32).storeUint(1, 16).endCell();
    const events = tokenEvents(
      [
        tx(stranger, transferBody({ inRef: true, cell: comment })),
        tx(WALLET, transferBody({ inRef: true, cell: comment }), { internal: false, source: null }),
        tx(WALLET, truncated),
        tx(ITEM, transferBody({ inRef: true, cell: comment })),
      ],
      TOKENS,
      3,
    );
    expect(events).toEqual({ jettonTransfers: [], jettonBurns: [], nftTransfers: [] });
  });
});
