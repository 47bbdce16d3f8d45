import { Address, beginCell, Builder, Cell, ExternalAddress, Slice } from '@ton/core';

/**
 * The standard message bodies of TON's token and system contracts as loadX/storeX pairs:
 * TEP-74 jettons, TEP-62 NFTs, TEP-81 DNS items, the elector, multisig v2 and vesting. Each
 * loader reads the body from its first bit (the 32-bit opcode included) and throws on a body that
 * does not fit; callers that classify traffic (the decoder, the action classifier) try-catch.
 */

/** Opcodes (the `#xxxxxxxx` tags of the TEP schemes). */
export const OP = {
  textComment: 0x00000000,
  encryptedComment: 0x2167da4b,
  excesses: 0xd53276db,
  bounce: 0xffffffff,
  jettonTransfer: 0x0f8a7ea5,
  jettonInternalTransfer: 0x178d4519,
  jettonTransferNotification: 0x7362d09c,
  jettonBurn: 0x595f07bc,
  jettonBurnNotification: 0x7bdd97de,
  jettonMint: 0x642b7d07,
  minterMint: 0x00000015,
  jettonChangeAdmin: 0x6501f354,
  nftTransfer: 0x5fcc3d14,
  nftOwnershipAssigned: 0x05138d91,
  nftGetStaticData: 0x2fcb26a2,
  nftReportStaticData: 0x8b771735,
  dnsChangeRecord: 0x4eb1f0f9,
  dnsBalanceRelease: 0x4ed14b65,
  electorNewStake: 0x4e73744b,
  electorNewStakeConfirmation: 0xf374484c,
  electorNewStakeError: 0xee6f454c,
  electorRecoverStakeRequest: 0x47657424,
  electorRecoverStakeResponse: 0xf96f7324,
  electorRecoverStakeError: 0xfffffffe,
  multisigNewOrder: 0xf718510f,
  multisigExecute: 0x75097f5d,
  multisigOrderInit: 0x9c73fba2,
  multisigApprove: 0xa762230f,
  multisigApproveAccepted: 0x82609bf6,
  multisigApproveRejected: 0xafaf283e,
  vestingSendMessage: 0xa7733acd,
  vestingSendMessageResponse: 0xf7733acd,
  vestingAddWhitelist: 0x7258a69b,
  vestingAddWhitelistResponse: 0xf258a69b,
} as const;

/** `MsgAddress`: none, external or internal. */
export type MsgAddress = Address | ExternalAddress | null;

function expectOp(s: Slice, op: number, name: string): void {
  const got = s.loadUint(32);
  if (got !== op) throw new Error(`${name}: opcode 0x${got.toString(16).padStart(8, '0')}, expected 0x${op.toString(16).padStart(8, '0')}`);
}

/** `Either Cell ^Cell` as a payload: where it was (for storeX) and the cell itself. */
export interface EitherPayload {
  readonly inRef: boolean;
  readonly cell: Cell;
}

/** The rest of the slice as one cell (its bits and refs), for an inline `Either` payload. */
export function sliceRest(s: Slice): Cell {
  const b = beginCell().storeBits(s.loadBits(s.remainingBits));
  while (s.remainingRefs > 0) b.storeRef(s.loadRef());
  return b.endCell();
}

export function loadEitherPayload(s: Slice): EitherPayload {
  if (s.loadBit()) return { inRef: true, cell: s.loadRef() };
  return { inRef: false, cell: sliceRest(s) };
}

export function storeEitherPayload(src: EitherPayload) {
  return (b: Builder) => {
    if (src.inRef) b.storeBit(1).storeRef(src.cell);
    else b.storeBit(0).storeSlice(src.cell.beginParse());
  };
}

/** An `Either` payload that is absent: a 0 bit with nothing after it. */
export function isEmptyPayload(payload: EitherPayload): boolean {
  return !payload.inRef && payload.cell.bits.length === 0 && payload.cell.refs.length === 0;
}

// ---- TEP-74 jettons -------------------------------------------------------------------------

/** `transfer#0f8a7ea5 query_id:uint64 amount:Coins destination:MsgAddress response_destination:MsgAddress custom_payload:(Maybe ^Cell) forward_ton_amount:Coins forward_payload:(Either Cell ^Cell)` */
export interface JettonTransfer {
  queryId: bigint;
  amount: bigint;
  destination: MsgAddress;
  responseDestination: MsgAddress;
  customPayload: Cell | null;
  forwardTonAmount: bigint;
  forwardPayload: EitherPayload;
}

export function loadJettonTransfer(s: Slice): JettonTransfer {
  expectOp(s, OP.jettonTransfer, 'jetton transfer');
  return {
    queryId: s.loadUintBig(64),
    amount: s.loadCoins(),
    destination: s.loadAddressAny(),
    responseDestination: s.loadAddressAny(),
    customPayload: s.loadMaybeRef(),
    forwardTonAmount: s.loadCoins(),
    // Old wallets omit the Either bit when nothing is forwarded.
    forwardPayload: s.remainingBits === 0 && s.remainingRefs === 0 ? { inRef: false, cell: Cell.EMPTY } : loadEitherPayload(s),
  };
}

export function storeJettonTransfer(src: JettonTransfer) {
  return (b: Builder) => {
    b.storeUint(OP.jettonTransfer, 32)
      .storeUint(src.queryId, 64)
      .storeCoins(src.amount)
      .storeAddress(src.destination)
      .storeAddress(src.responseDestination)
      .storeMaybeRef(src.customPayload)
      .storeCoins(src.forwardTonAmount)
      .store(storeEitherPayload(src.forwardPayload));
  };
}

/** `internal_transfer#178d4519 query_id:uint64 amount:Coins from:MsgAddress response_address:MsgAddress forward_ton_amount:Coins forward_payload:(Either Cell ^Cell)` */
export interface JettonInternalTransfer {
  queryId: bigint;
  amount: bigint;
  from: MsgAddress;
  responseAddress: MsgAddress;
  forwardTonAmount: bigint;
  forwardPayload: EitherPayload;
}

export function loadJettonInternalTransfer(s: Slice): JettonInternalTransfer {
  expectOp(s, OP.jettonInternalTransfer, 'jetton internal_transfer');
  const queryId = s.loadUintBig(64);
  const amount = s.loadCoins();
  const from = s.loadAddressAny();
  const responseAddress = s.loadAddressAny();
  // Minters that build internal_transfer by hand may stop after the addresses.
  const forwardTonAmount = s.remainingBits >= 4 ? s.loadCoins() : 0n;
  const forwardPayload = s.remainingBits === 0 && s.remainingRefs === 0 ? { inRef: false, cell: Cell.EMPTY } : loadEitherPayload(s);
  return { queryId, amount, from, responseAddress, forwardTonAmount, forwardPayload };
}

export function storeJettonInternalTransfer(src: JettonInternalTransfer) {
  return (b: Builder) => {
    b.storeUint(OP.jettonInternalTransfer, 32)
      .storeUint(src.queryId, 64)
      .storeCoins(src.amount)
      .storeAddress(src.from)
      .storeAddress(src.responseAddress)
      .storeCoins(src.forwardTonAmount)
      .store(storeEitherPayload(src.forwardPayload));
  };
}

/** `transfer_notification#7362d09c query_id:uint64 amount:Coins sender:MsgAddress forward_payload:(Either Cell ^Cell)` */
export interface JettonTransferNotification {
  queryId: bigint;
  amount: bigint;
  sender: MsgAddress;
  forwardPayload: EitherPayload;
}

export function loadJettonTransferNotification(s: Slice): JettonTransferNotification {
  expectOp(s, OP.jettonTransferNotification, 'jetton transfer_notification');
  const queryId = s.loadUintBig(64);
  const amount = s.loadCoins();
  const sender = s.loadAddressAny();
  const forwardPayload = s.remainingBits === 0 && s.remainingRefs === 0 ? { inRef: false, cell: Cell.EMPTY } : loadEitherPayload(s);
  return { queryId, amount, sender, forwardPayload };
}

export function storeJettonTransferNotification(src: JettonTransferNotification) {
  return (b: Builder) => {
    b.storeUint(OP.jettonTransferNotification, 32)
      .storeUint(src.queryId, 64)
      .storeCoins(src.amount)
      .storeAddress(src.sender)
      .store(storeEitherPayload(src.forwardPayload));
  };
}

/** `excesses#d53276db query_id:uint64` (jettons and NFTs alike). */
export interface Excesses {
  queryId: bigint;
}

export function loadExcesses(s: Slice): Excesses {
  expectOp(s, OP.excesses, 'excesses');
  return { queryId: s.loadUintBig(64) };
}

export function storeExcesses(src: Excesses) {
  return (b: Builder) => {
    b.storeUint(OP.excesses, 32).storeUint(src.queryId, 64);
  };
}

/** `burn#595f07bc query_id:uint64 amount:Coins response_destination:MsgAddress custom_payload:(Maybe ^Cell)` */
export interface JettonBurn {
  queryId: bigint;
  amount: bigint;
  responseDestination: MsgAddress;
  customPayload: Cell | null;
}

export function loadJettonBurn(s: Slice): JettonBurn {
  expectOp(s, OP.jettonBurn, 'jetton burn');
  const queryId = s.loadUintBig(64);
  const amount = s.loadCoins();
  const responseDestination = s.loadAddressAny();
  const customPayload = s.remainingBits > 0 ? s.loadMaybeRef() : null;
  return { queryId, amount, responseDestination, customPayload };
}

export function storeJettonBurn(src: JettonBurn) {
  return (b: Builder) => {
    b.storeUint(OP.jettonBurn, 32)
      .storeUint(src.queryId, 64)
      .storeCoins(src.amount)
      .storeAddress(src.responseDestination)
      .storeMaybeRef(src.customPayload);
  };
}

/** `burn_notification#7bdd97de query_id:uint64 amount:Coins sender:MsgAddress response_destination:MsgAddress` */
export interface JettonBurnNotification {
  queryId: bigint;
  amount: bigint;
  sender: MsgAddress;
  responseDestination: MsgAddress;
}

export function loadJettonBurnNotification(s: Slice): JettonBurnNotification {
  expectOp(s, OP.jettonBurnNotification, 'jetton burn_notification');
  const queryId = s.loadUintBig(64);
  const amount = s.loadCoins();
  const sender = s.loadAddressAny();
  const responseDestination = s.remainingBits >= 2 ? s.loadAddressAny() : null;
  return { queryId, amount, sender, responseDestination };
}

export function storeJettonBurnNotification(src: JettonBurnNotification) {
  return (b: Builder) => {
    b.storeUint(OP.jettonBurnNotification, 32)
      .storeUint(src.queryId, 64)
      .storeCoins(src.amount)
      .storeAddress(src.sender)
      .storeAddress(src.responseDestination);
  };
}

/** The standard minter's `mint#642b7d07 query_id:uint64 to_address:MsgAddress ton_amount:Coins master_msg:^Cell`. */
export interface JettonMint {
  queryId: bigint;
  toAddress: MsgAddress;
  tonAmount: bigint;
  masterMsg: Cell;
}

export function loadJettonMint(s: Slice, op: number = OP.jettonMint): JettonMint {
  expectOp(s, op, 'jetton mint');
  return { queryId: s.loadUintBig(64), toAddress: s.loadAddressAny(), tonAmount: s.loadCoins(), masterMsg: s.loadRef() };
}

export function storeJettonMint(src: JettonMint, op: number = OP.jettonMint) {
  return (b: Builder) => {
    b.storeUint(op, 32).storeUint(src.queryId, 64).storeAddress(src.toAddress).storeCoins(src.tonAmount).storeRef(src.masterMsg);
  };
}

// ---- TEP-62 NFTs ----------------------------------------------------------------------------

/** `transfer#5fcc3d14 query_id:uint64 new_owner:MsgAddress response_destination:MsgAddress custom_payload:(Maybe ^Cell) forward_amount:Coins forward_payload:(Either Cell ^Cell)` */
export interface NftTransfer {
  queryId: bigint;
  newOwner: MsgAddress;
  responseDestination: MsgAddress;
  customPayload: Cell | null;
  forwardAmount: bigint;
  forwardPayload: EitherPayload;
}

export function loadNftTransfer(s: Slice): NftTransfer {
  expectOp(s, OP.nftTransfer, 'nft transfer');
  const queryId = s.loadUintBig(64);
  const newOwner = s.loadAddressAny();
  const responseDestination = s.loadAddressAny();
  const customPayload = s.loadMaybeRef();
  const forwardAmount = s.loadCoins();
  const forwardPayload = s.remainingBits === 0 && s.remainingRefs === 0 ? { inRef: false, cell: Cell.EMPTY } : loadEitherPayload(s);
  return { queryId, newOwner, responseDestination, customPayload, forwardAmount, forwardPayload };
}

export function storeNftTransfer(src: NftTransfer) {
  return (b: Builder) => {
    b.storeUint(OP.nftTransfer, 32)
      .storeUint(src.queryId, 64)
      .storeAddress(src.newOwner)
      .storeAddress(src.responseDestination)
      .storeMaybeRef(src.customPayload)
      .storeCoins(src.forwardAmount)
      .store(storeEitherPayload(src.forwardPayload));
  };
}

/** `ownership_assigned#05138d91 query_id:uint64 prev_owner:MsgAddress forward_payload:(Either Cell ^Cell)` */
export interface NftOwnershipAssigned {
  queryId: bigint;
  prevOwner: MsgAddress;
  forwardPayload: EitherPayload;
}

export function loadNftOwnershipAssigned(s: Slice): NftOwnershipAssigned {
  expectOp(s, OP.nftOwnershipAssigned, 'nft ownership_assigned');
  const queryId = s.loadUintBig(64);
  const prevOwner = s.loadAddressAny();
  const forwardPayload = s.remainingBits === 0 && s.remainingRefs === 0 ? { inRef: false, cell: Cell.EMPTY } : loadEitherPayload(s);
  return { queryId, prevOwner, forwardPayload };
}

export function storeNftOwnershipAssigned(src: NftOwnershipAssigned) {
  return (b: Builder) => {
    b.storeUint(OP.nftOwnershipAssigned, 32).storeUint(src.queryId, 64).storeAddress(src.prevOwner).store(storeEitherPayload(src.forwardPayload));
  };
}

// ---- TEP-81 DNS -----------------------------------------------------------------------------

/** `change_dns_record#4eb1f0f9 query_id:uint64 key:bits256 value:(Maybe ^DNSRecord)`: no value = delete. */
export interface DnsChangeRecord {
  queryId: bigint;
  key: Buffer;
  value: Cell | null;
}

export function loadDnsChangeRecord(s: Slice): DnsChangeRecord {
  expectOp(s, OP.dnsChangeRecord, 'dns change_dns_record');
  const queryId = s.loadUintBig(64);
  const key = s.loadBuffer(32);
  const value = s.remainingRefs > 0 ? s.loadRef() : null;
  return { queryId, key, value };
}

export function storeDnsChangeRecord(src: DnsChangeRecord) {
  return (b: Builder) => {
    b.storeUint(OP.dnsChangeRecord, 32).storeUint(src.queryId, 64).storeBuffer(src.key, 32);
    if (src.value) b.storeRef(src.value);
  };
}

// ---- Messages with a query id only (excess-like notifications, elector answers, ...) --------

/** `op:uint32 query_id:uint64`: the shape of many acknowledgements. */
export interface QueryIdOnly {
  op: number;
  queryId: bigint;
}

export function loadQueryIdOnly(s: Slice): QueryIdOnly {
  return { op: s.loadUint(32), queryId: s.loadUintBig(64) };
}

export function storeQueryIdOnly(src: QueryIdOnly) {
  return (b: Builder) => {
    b.storeUint(src.op, 32).storeUint(src.queryId, 64);
  };
}

// ---- Elector --------------------------------------------------------------------------------

/** `new_stake#4e73744b query_id:uint64 validator_pubkey:bits256 stake_at:uint32 max_factor:uint32 adnl_addr:bits256 signature:^bits512` */
export interface ElectorNewStake {
  queryId: bigint;
  validatorPubkey: Buffer;
  stakeAt: number;
  maxFactor: number;
  adnlAddr: Buffer;
  signature: Buffer;
}

export function loadElectorNewStake(s: Slice): ElectorNewStake {
  expectOp(s, OP.electorNewStake, 'elector new_stake');
  const queryId = s.loadUintBig(64);
  const validatorPubkey = s.loadBuffer(32);
  const stakeAt = s.loadUint(32);
  const maxFactor = s.loadUint(32);
  const adnlAddr = s.loadBuffer(32);
  const signature = s.loadRef().beginParse().loadBuffer(64);
  return { queryId, validatorPubkey, stakeAt, maxFactor, adnlAddr, signature };
}

export function storeElectorNewStake(src: ElectorNewStake) {
  return (b: Builder) => {
    b.storeUint(OP.electorNewStake, 32)
      .storeUint(src.queryId, 64)
      .storeBuffer(src.validatorPubkey, 32)
      .storeUint(src.stakeAt, 32)
      .storeUint(src.maxFactor, 32)
      .storeBuffer(src.adnlAddr, 32)
      .storeRef(beginCell().storeBuffer(src.signature, 64));
  };
}

// ---- Multisig v2 (ton-blockchain/multisig-contract-v2) ----------------------------------------

/** `new_order#f718510f query_id:uint64 order_seqno:uint256 signer:Bool index:uint8 expiration_date:uint48 order:^Cell` */
export interface MultisigNewOrder {
  queryId: bigint;
  orderSeqno: bigint;
  signer: boolean;
  index: number;
  expirationDate: number;
  order: Cell;
}

export function loadMultisigNewOrder(s: Slice): MultisigNewOrder {
  expectOp(s, OP.multisigNewOrder, 'multisig new_order');
  return {
    queryId: s.loadUintBig(64),
    orderSeqno: s.loadUintBig(256),
    signer: s.loadBit(),
    index: s.loadUint(8),
    expirationDate: s.loadUint(48),
    order: s.loadRef(),
  };
}

export function storeMultisigNewOrder(src: MultisigNewOrder) {
  return (b: Builder) => {
    b.storeUint(OP.multisigNewOrder, 32)
      .storeUint(src.queryId, 64)
      .storeUint(src.orderSeqno, 256)
      .storeBit(src.signer)
      .storeUint(src.index, 8)
      .storeUint(src.expirationDate, 48)
      .storeRef(src.order);
  };
}

/** `execute#75097f5d query_id:uint64 order_seqno:uint256 expiration_date:uint48 approvals_num:uint8 signers_hash:bits256 order:^Cell` */
export interface MultisigExecute {
  queryId: bigint;
  orderSeqno: bigint;
  expirationDate: number;
  approvalsNum: number;
  signersHash: Buffer;
  order: Cell;
}

export function loadMultisigExecute(s: Slice): MultisigExecute {
  expectOp(s, OP.multisigExecute, 'multisig execute');
  return {
    queryId: s.loadUintBig(64),
    orderSeqno: s.loadUintBig(256),
    expirationDate: s.loadUint(48),
    approvalsNum: s.loadUint(8),
    signersHash: s.loadBuffer(32),
    order: s.loadRef(),
  };
}

export function storeMultisigExecute(src: MultisigExecute) {
  return (b: Builder) => {
    b.storeUint(OP.multisigExecute, 32)
      .storeUint(src.queryId, 64)
      .storeUint(src.orderSeqno, 256)
      .storeUint(src.expirationDate, 48)
      .storeUint(src.approvalsNum, 8)
      .storeBuffer(src.signersHash, 32)
      .storeRef(src.order);
  };
}

/**
 * The multisig's deploy message to a new order: `init#9c73fba2 query_id:uint64 threshold:uint8
 * signers:^(Hashmap 8 MsgAddressInt) expiration_date:uint48 order:^Order approve_on_init:Bool
 * signer_index:approve_on_init?uint8`.
 */
export interface MultisigOrderInit {
  queryId: bigint;
  threshold: number;
  signers: Cell;
  expirationDate: number;
  order: Cell;
  approveOnInit: boolean;
  /** -1 when the creator did not approve on init (toncenter's value). */
  signerIndex: number;
}

export function loadMultisigOrderInit(s: Slice): MultisigOrderInit {
  expectOp(s, OP.multisigOrderInit, 'multisig order init');
  const queryId = s.loadUintBig(64);
  const threshold = s.loadUint(8);
  const signers = s.loadRef();
  const expirationDate = s.loadUint(48);
  const order = s.loadRef();
  const approveOnInit = s.loadBit();
  return { queryId, threshold, signers, expirationDate, order, approveOnInit, signerIndex: approveOnInit ? s.loadUint(8) : -1 };
}

export function storeMultisigOrderInit(src: MultisigOrderInit) {
  return (b: Builder) => {
    b.storeUint(OP.multisigOrderInit, 32).storeUint(src.queryId, 64).storeUint(src.threshold, 8).storeRef(src.signers);
    b.storeUint(src.expirationDate, 48).storeRef(src.order).storeBit(src.approveOnInit);
    if (src.approveOnInit) b.storeUint(src.signerIndex, 8);
  };
}

/** `approve_rejected#afaf283e query_id:uint64 exit_code:uint32` (order → signer). */
export function loadMultisigApproveRejectedExitCode(s: Slice): number {
  expectOp(s, OP.multisigApproveRejected, 'multisig approve_rejected');
  s.loadUintBig(64);
  return s.loadUint(32);
}

/** `approve#a762230f query_id:uint64 signer_index:uint8` */
export interface MultisigApprove {
  queryId: bigint;
  signerIndex: number;
}

export function loadMultisigApprove(s: Slice): MultisigApprove {
  expectOp(s, OP.multisigApprove, 'multisig approve');
  return { queryId: s.loadUintBig(64), signerIndex: s.loadUint(8) };
}

export function storeMultisigApprove(src: MultisigApprove) {
  return (b: Builder) => {
    b.storeUint(OP.multisigApprove, 32).storeUint(src.queryId, 64).storeUint(src.signerIndex, 8);
  };
}

// ---- Vesting (ton-blockchain/vesting-contract) -------------------------------------------------

/** `send#a7733acd query_id:uint64 send_mode:uint8 message:^MessageRelaxed` */
export interface VestingSendMessage {
  queryId: bigint;
  sendMode: number;
  message: Cell;
}

export function loadVestingSendMessage(s: Slice): VestingSendMessage {
  expectOp(s, OP.vestingSendMessage, 'vesting send');
  return { queryId: s.loadUintBig(64), sendMode: s.loadUint(8), message: s.loadRef() };
}

export function storeVestingSendMessage(src: VestingSendMessage) {
  return (b: Builder) => {
    b.storeUint(OP.vestingSendMessage, 32).storeUint(src.queryId, 64).storeUint(src.sendMode, 8).storeRef(src.message);
  };
}

/** `add_whitelist#7258a69b query_id:uint64 addresses:MsgAddressInt..., more in a ref chain` */
export interface VestingAddWhitelist {
  queryId: bigint;
  addresses: Address[];
}

/** Most whitelist addresses read from one body (a hostile body could chain many refs). */
const MAX_WHITELIST_ADDRESSES = 256;

export function loadVestingAddWhitelist(s: Slice): VestingAddWhitelist {
  expectOp(s, OP.vestingAddWhitelist, 'vesting add_whitelist');
  const queryId = s.loadUintBig(64);
  const addresses: Address[] = [];
  let cursor: Slice | null = s;
  while (cursor && addresses.length < MAX_WHITELIST_ADDRESSES) {
    addresses.push(cursor.loadAddress());
    if (cursor.remainingBits >= 267) continue;
    cursor = cursor.remainingRefs > 0 ? cursor.loadRef().beginParse() : null;
  }
  return { queryId, addresses };
}

export function storeVestingAddWhitelist(src: VestingAddWhitelist) {
  return (b: Builder) => {
    b.storeUint(OP.vestingAddWhitelist, 32).storeUint(src.queryId, 64);
    // One address inline, the rest one per cell in a chain of refs.
    const [first, ...rest] = src.addresses;
    if (!first) throw new Error('vesting add_whitelist needs an address');
    b.storeAddress(first);
    let tail: Cell | null = null;
    for (let i = rest.length - 1; i >= 0; i--) {
      const cell = beginCell().storeAddress(rest[i]);
      if (tail) cell.storeRef(tail);
      tail = cell.endCell();
    }
    if (tail) b.storeRef(tail);
  };
}

// ---- Comments -----------------------------------------------------------------------------

/** `text_comment#00000000 text:SnakeString` (bytes, UTF-8 by convention). */
export interface TextComment {
  text: Buffer;
}

/** Longest comment read (a snake string can chain many cells; toncenter's payloads are small). */
const MAX_COMMENT_BYTES = 64 * 1024;

export function loadTextComment(s: Slice): TextComment {
  expectOp(s, OP.textComment, 'text comment');
  const parts: Buffer[] = [];
  let total = 0;
  let cursor: Slice | null = s;
  while (cursor) {
    if (cursor.remainingBits % 8 !== 0) throw new Error('text comment: not whole bytes');
    const part = cursor.loadBuffer(cursor.remainingBits / 8);
    total += part.length;
    if (total > MAX_COMMENT_BYTES) throw new Error('text comment: too long');
    parts.push(part);
    cursor = cursor.remainingRefs > 0 ? cursor.loadRef().beginParse() : null;
  }
  return { text: Buffer.concat(parts) };
}

/** Stores a comment as a snake: 123 bytes in the root after the opcode, 127 in each next cell. */
export function storeTextComment(src: TextComment) {
  return (b: Builder) => {
    b.storeUint(OP.textComment, 32);
    const first = src.text.subarray(0, 123);
    b.storeBuffer(first);
    let rest = src.text.subarray(123);
    const chunks: Buffer[] = [];
    while (rest.length > 0) {
      chunks.push(rest.subarray(0, 127));
      rest = rest.subarray(127);
    }
    let tail: Cell | null = null;
    for (let i = chunks.length - 1; i >= 0; i--) {
      const cell = beginCell().storeBuffer(chunks[i]);
      if (tail) cell.storeRef(tail);
      tail = cell.endCell();
    }
    if (tail) b.storeRef(tail);
  };
}

/** The 32-bit opcode of a body, or undefined for a body shorter than 32 bits. */
export function bodyOpcode(body: Cell): number | undefined {
  return body.bits.length >= 32 ? body.beginParse(true).preloadUint(32) : undefined;
}
