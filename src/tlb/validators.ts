import { Builder, Slice } from '@ton/core';
import { DictRoot, expectTag, loadHashmapE, storeHashmapE } from './common';

/** `validator#53 public_key:SigPubKey weight:uint64` / `validator_addr#73 ... adnl_addr:bits256` */
export interface ValidatorDescr {
  publicKey: Buffer;
  weight: bigint;
  adnlAddr: Buffer | null;
}

export function storeValidatorDescr(src: ValidatorDescr) {
  return (b: Builder) => {
    b.storeUint(src.adnlAddr ? 0x73 : 0x53, 8)
      .storeUint(0x8e81278a, 32)
      .storeBuffer(src.publicKey, 32)
      .storeUint(src.weight, 64);
    if (src.adnlAddr) b.storeBuffer(src.adnlAddr, 32);
  };
}

export function loadValidatorDescr(s: Slice): ValidatorDescr {
  const tag = s.loadUint(8);
  if (tag !== 0x53 && tag !== 0x73) throw new Error(`ValidatorDescr: bad tag 0x${tag.toString(16)}`);
  expectTag(s, 0x8e81278a, 32, 'SigPubKey');
  const publicKey = s.loadBuffer(32);
  const weight = s.loadUintBig(64);
  return { publicKey, weight, adnlAddr: tag === 0x73 ? s.loadBuffer(32) : null };
}

/** `validators_ext#12 utime_since utime_until total:(## 16) main:(## 16) total_weight:uint64 list:(HashmapE 16 ValidatorDescr)` */
export interface ValidatorSet {
  utimeSince: number;
  utimeUntil: number;
  total: number;
  main: number;
  totalWeight: bigint;
  list: DictRoot;
}

export function storeValidatorSet(src: ValidatorSet) {
  return (b: Builder) => {
    b.storeUint(0x12, 8)
      .storeUint(src.utimeSince, 32)
      .storeUint(src.utimeUntil, 32)
      .storeUint(src.total, 16)
      .storeUint(src.main, 16)
      .storeUint(src.totalWeight, 64)
      .store(storeHashmapE(src.list));
  };
}

export function loadValidatorSet(s: Slice): ValidatorSet {
  const tag = s.loadUint(8);
  if (tag !== 0x12 && tag !== 0x11) throw new Error(`ValidatorSet: bad tag 0x${tag.toString(16)}`);
  const utimeSince = s.loadUint(32);
  const utimeUntil = s.loadUint(32);
  const total = s.loadUint(16);
  const main = s.loadUint(16);
  if (tag === 0x12) {
    const totalWeight = s.loadUintBig(64);
    return { utimeSince, utimeUntil, total, main, totalWeight, list: loadHashmapE(s) };
  }
  // validators#11 keeps a non-empty Hashmap inline; total weight is not stored.
  return { utimeSince, utimeUntil, total, main, totalWeight: 0n, list: { root: s.asCell() } };
}
