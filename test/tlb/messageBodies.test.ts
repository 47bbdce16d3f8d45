import { Address, beginCell, Cell, ExternalAddress } from '@ton/core';
import {
  loadDnsChangeRecord,
  loadElectorNewStake,
  loadExcesses,
  loadJettonBurn,
  loadJettonBurnNotification,
  loadJettonInternalTransfer,
  loadJettonMint,
  loadJettonTransfer,
  loadJettonTransferNotification,
  loadMultisigApprove,
  loadMultisigExecute,
  loadMultisigNewOrder,
  loadNftOwnershipAssigned,
  loadNftTransfer,
  loadTextComment,
  loadVestingAddWhitelist,
  loadVestingSendMessage,
  storeDnsChangeRecord,
  storeElectorNewStake,
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
  storeNftOwnershipAssigned,
  storeNftTransfer,
  storeTextComment,
  storeVestingAddWhitelist,
  storeVestingSendMessage,
  type JettonMint,
} from '../../src/tlb';

const A = Address.parse('0:' + '11'.repeat(32));
const B = Address.parse('-1:' + 'ab'.repeat(32));
const comment = beginCell().storeUint(0, 32).storeStringTail('hello').endCell();

/** store then load gives the value back, and storing that again gives the same cell. */
function roundTrip<T>(value: T, store: (v: T) => (b: ReturnType<typeof beginCell>) => void, load: (s: ReturnType<Cell['beginParse']>) => T): T {
  const cell = beginCell().store(store(value)).endCell();
  const loaded = load(cell.beginParse());
  expect(beginCell().store(store(loaded)).endCell().hash().equals(cell.hash())).toBe(true);
  return loaded;
}

describe('TL-B message bodies (loadX/storeX pairs)', () => {
  test('jetton transfer with an inline and a referenced forward payload', () => {
    const base = {
      queryId: 12345678901234n,
      amount: 10n ** 18n,
      destination: A,
      responseDestination: B,
      customPayload: null,
      forwardTonAmount: 50_000_000n,
    };
    const inline = roundTrip({ ...base, forwardPayload: { inRef: false, cell: comment } }, storeJettonTransfer, loadJettonTransfer);
    expect(inline.amount).toBe(10n ** 18n);
    expect((inline.destination as Address).equals(A)).toBe(true);
    expect(inline.forwardPayload.cell.hash().equals(comment.hash())).toBe(true);
    const inRef = roundTrip({ ...base, customPayload: comment, forwardPayload: { inRef: true, cell: comment } }, storeJettonTransfer, loadJettonTransfer);
    expect(inRef.forwardPayload.inRef).toBe(true);
    expect(inRef.customPayload?.hash().equals(comment.hash())).toBe(true);
  });

  test('jetton transfer from an old wallet without the Either bit', () => {
    const cell = beginCell()
      .storeUint(0x0f8a7ea5, 32)
      .storeUint(1, 64)
      .storeCoins(5)
      .storeAddress(A)
      .storeAddress(null)
      .storeBit(0)
      .storeCoins(0)
      .endCell();
    const v = loadJettonTransfer(cell.beginParse());
    expect(v.responseDestination).toBeNull();
    expect(v.forwardPayload.cell.bits.length).toBe(0);
  });

  test('a body with another opcode or too short throws', () => {
    expect(() => loadJettonTransfer(beginCell().storeUint(0x5fcc3d14, 32).storeUint(0, 64).endCell().beginParse())).toThrow(/opcode 0x5fcc3d14/);
    expect(() => loadJettonTransfer(beginCell().storeUint(0x0f8a7ea5, 32).storeUint(0, 10).endCell().beginParse())).toThrow();
  });

  test('jetton internal_transfer, notification, excesses, burn, burn_notification, mint', () => {
    const internal = roundTrip(
      { queryId: 7n, amount: 99n, from: A, responseAddress: B, forwardTonAmount: 1n, forwardPayload: { inRef: true, cell: comment } },
      storeJettonInternalTransfer,
      loadJettonInternalTransfer,
    );
    expect((internal.from as Address).equals(A)).toBe(true);
    const note = roundTrip({ queryId: 7n, amount: 99n, sender: A, forwardPayload: { inRef: false, cell: comment } }, storeJettonTransferNotification, loadJettonTransferNotification);
    expect(note.amount).toBe(99n);
    expect(roundTrip({ queryId: 42n }, storeExcesses, loadExcesses).queryId).toBe(42n);
    const burn = roundTrip({ queryId: 1n, amount: 3n, responseDestination: A, customPayload: null }, storeJettonBurn, loadJettonBurn);
    expect(burn.amount).toBe(3n);
    const burnNote = roundTrip({ queryId: 1n, amount: 3n, sender: A, responseDestination: B }, storeJettonBurnNotification, loadJettonBurnNotification);
    expect((burnNote.responseDestination as Address).equals(B)).toBe(true);
    const mint = roundTrip<JettonMint>({ queryId: 0n, toAddress: A, tonAmount: 20_000_000n, masterMsg: comment }, (v) => storeJettonMint(v), (s) => loadJettonMint(s));
    expect(mint.masterMsg.hash().equals(comment.hash())).toBe(true);
  });

  test('external addresses load as ExternalAddress', () => {
    const ext = new ExternalAddress(5n, 8);
    const v = roundTrip({ queryId: 1n, amount: 3n, sender: A, responseDestination: ext }, storeJettonBurnNotification, loadJettonBurnNotification);
    expect(v.responseDestination).toBeInstanceOf(ExternalAddress);
  });

  test('nft transfer and ownership_assigned', () => {
    const t = roundTrip(
      { queryId: 5n, newOwner: B, responseDestination: A, customPayload: null, forwardAmount: 1n, forwardPayload: { inRef: false, cell: Cell.EMPTY } },
      storeNftTransfer,
      loadNftTransfer,
    );
    expect((t.newOwner as Address).equals(B)).toBe(true);
    const o = roundTrip({ queryId: 5n, prevOwner: A, forwardPayload: { inRef: true, cell: comment } }, storeNftOwnershipAssigned, loadNftOwnershipAssigned);
    expect((o.prevOwner as Address).equals(A)).toBe(true);
  });

  test('dns change and delete', () => {
    const key = Buffer.alloc(32, 7);
    const change = roundTrip({ queryId: 2n, key, value: comment }, storeDnsChangeRecord, loadDnsChangeRecord);
    expect(change.value?.hash().equals(comment.hash())).toBe(true);
    expect(roundTrip({ queryId: 2n, key, value: null }, storeDnsChangeRecord, loadDnsChangeRecord).value).toBeNull();
  });

  test('elector new_stake, multisig new_order/execute/approve, vesting send/add_whitelist', () => {
    const stake = roundTrip(
      { queryId: 1n, validatorPubkey: Buffer.alloc(32, 1), stakeAt: 1700000000, maxFactor: 196608, adnlAddr: Buffer.alloc(32, 2), signature: Buffer.alloc(64, 3) },
      storeElectorNewStake,
      loadElectorNewStake,
    );
    expect(stake.maxFactor).toBe(196608);
    const order = roundTrip(
      { queryId: 1n, orderSeqno: 2n ** 200n, signer: true, index: 3, expirationDate: 2 ** 40, order: comment },
      storeMultisigNewOrder,
      loadMultisigNewOrder,
    );
    expect(order.expirationDate).toBe(2 ** 40);
    const exec = roundTrip(
      { queryId: 1n, orderSeqno: 9n, expirationDate: 100, approvalsNum: 2, signersHash: Buffer.alloc(32, 4), order: comment },
      storeMultisigExecute,
      loadMultisigExecute,
    );
    expect(exec.approvalsNum).toBe(2);
    expect(roundTrip({ queryId: 1n, signerIndex: 4 }, storeMultisigApprove, loadMultisigApprove).signerIndex).toBe(4);
    expect(roundTrip({ queryId: 1n, sendMode: 3, message: comment }, storeVestingSendMessage, loadVestingSendMessage).sendMode).toBe(3);
    const wl = roundTrip({ queryId: 1n, addresses: [A, B, A] }, storeVestingAddWhitelist, loadVestingAddWhitelist);
    expect(wl.addresses.map((a) => a.toRawString())).toEqual([A, B, A].map((a) => a.toRawString()));
  });

  test('text comments as snakes across cells', () => {
    const text = Buffer.from('x'.repeat(400) + 'ü');
    const v = roundTrip({ text }, storeTextComment, loadTextComment);
    expect(v.text.equals(text)).toBe(true);
  });
});
