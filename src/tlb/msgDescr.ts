/**
 * Message descriptors of a block (block.tlb): MsgEnvelope, InMsg and OutMsg, in the variants a
 * chain without transit routing produces.
 */
import { Builder, Cell, Slice } from '@ton/core';

/**
 * `msg_envelope#4 cur_addr:IntermediateAddress next_addr:IntermediateAddress
 * fwd_fee_remaining:Grams msg:^(Message Any)`, with both addresses `interm_addr_regular$0
 * use_dest_bits:(#<= 96)` (7 bits).
 */
export interface MsgEnvelope {
  curUseDestBits: number;
  nextUseDestBits: number;
  fwdFeeRemaining: bigint;
  msg: Cell;
}

export function storeMsgEnvelope(src: MsgEnvelope) {
  return (b: Builder) => {
    b.storeUint(4, 4)
      .storeBit(false)
      .storeUint(src.curUseDestBits, 7)
      .storeBit(false)
      .storeUint(src.nextUseDestBits, 7)
      .storeCoins(src.fwdFeeRemaining)
      .storeRef(src.msg);
  };
}

export function loadMsgEnvelope(s: Slice): MsgEnvelope {
  const tag = s.loadUint(4);
  if (tag !== 4) throw new Error(`unsupported MsgEnvelope tag ${tag}`);
  if (s.loadBit()) throw new Error('only interm_addr_regular is supported');
  const curUseDestBits = s.loadUint(7);
  if (s.loadBit()) throw new Error('only interm_addr_regular is supported');
  const nextUseDestBits = s.loadUint(7);
  return { curUseDestBits, nextUseDestBits, fwdFeeRemaining: s.loadCoins(), msg: s.loadRef() };
}

/**
 * - `msg_import_ext$000 msg:^(Message Any) transaction:^Transaction`
 * - `msg_import_imm$011 in_msg:^MsgEnvelope transaction:^Transaction fwd_fee:Grams` (created in this block)
 * - `msg_import_fin$100 in_msg:^MsgEnvelope transaction:^Transaction fwd_fee:Grams` (from another shard)
 */
export type InMsg =
  { kind: 'ext'; msg: Cell; transaction: Cell } | { kind: 'imm' | 'fin'; envelope: Cell; transaction: Cell; fwdFee: bigint };

const IN_TAGS = { ext: 0b000, imm: 0b011, fin: 0b100 } as const;

export function storeInMsg(src: InMsg) {
  return (b: Builder) => {
    b.storeUint(IN_TAGS[src.kind], 3);
    if (src.kind === 'ext') b.storeRef(src.msg).storeRef(src.transaction);
    else b.storeRef(src.envelope).storeRef(src.transaction).storeCoins(src.fwdFee);
  };
}

export function loadInMsg(s: Slice): InMsg {
  const tag = s.loadUint(3);
  if (tag === IN_TAGS.ext) return { kind: 'ext', msg: s.loadRef(), transaction: s.loadRef() };
  if (tag === IN_TAGS.imm || tag === IN_TAGS.fin) {
    return { kind: tag === IN_TAGS.imm ? 'imm' : 'fin', envelope: s.loadRef(), transaction: s.loadRef(), fwdFee: s.loadCoins() };
  }
  throw new Error(`unsupported InMsg tag ${tag}`);
}

/**
 * - `msg_export_ext$000 msg:^(Message Any) transaction:^Transaction`
 * - `msg_export_imm$010 out_msg:^MsgEnvelope transaction:^Transaction reimport:^InMsg` (delivered in this block)
 * - `msg_export_new$001 out_msg:^MsgEnvelope transaction:^Transaction` (leaves for another shard)
 */
export type OutMsg =
  | { kind: 'ext'; msg: Cell; transaction: Cell }
  | { kind: 'imm'; envelope: Cell; transaction: Cell; reimport: Cell }
  | { kind: 'new'; envelope: Cell; transaction: Cell };

const OUT_TAGS = { ext: 0b000, imm: 0b010, new: 0b001 } as const;

export function storeOutMsg(src: OutMsg) {
  return (b: Builder) => {
    b.storeUint(OUT_TAGS[src.kind], 3);
    if (src.kind === 'ext') b.storeRef(src.msg).storeRef(src.transaction);
    else if (src.kind === 'imm') b.storeRef(src.envelope).storeRef(src.transaction).storeRef(src.reimport);
    else b.storeRef(src.envelope).storeRef(src.transaction);
  };
}

export function loadOutMsg(s: Slice): OutMsg {
  const tag = s.loadUint(3);
  if (tag === OUT_TAGS.ext) return { kind: 'ext', msg: s.loadRef(), transaction: s.loadRef() };
  if (tag === OUT_TAGS.imm) return { kind: 'imm', envelope: s.loadRef(), transaction: s.loadRef(), reimport: s.loadRef() };
  if (tag === OUT_TAGS.new) return { kind: 'new', envelope: s.loadRef(), transaction: s.loadRef() };
  throw new Error(`unsupported OutMsg tag ${tag}`);
}
