import { Builder, Slice } from '@ton/core';

/** Number of bits of the `#<= max` encoding: the bit length of `max`. */
export function lengthFieldBits(max: number): number {
  return max === 0 ? 0 : 32 - Math.clz32(max);
}

/**
 * Writes an HmLabel for `length` bits (`value`, most significant first) where at most `max`
 * bits remain, choosing the shortest of hml_short / hml_long / hml_same (ties: short, long).
 */
export function storeLabel(builder: Builder, value: bigint, length: number, max: number): void {
  const k = lengthFieldBits(max);
  const shortLen = 2 * length + 2;
  const longLen = 2 + k + length;
  const allOnes = length > 0 && value === (1n << BigInt(length)) - 1n;
  const same = length > 0 && (value === 0n || allOnes);
  const sameLen = 3 + k;
  if (same && sameLen < shortLen && sameLen < longLen) {
    builder.storeUint(allOnes ? 0b111 : 0b110, 3);
    builder.storeUint(length, k);
  } else if (longLen < shortLen) {
    builder.storeUint(0b10, 2);
    builder.storeUint(length, k);
    if (length > 0) builder.storeUint(value, length);
  } else {
    builder.storeBit(false);
    for (let i = 0; i < length; i++) builder.storeBit(true);
    builder.storeBit(false);
    if (length > 0) builder.storeUint(value, length);
  }
}

export interface Label {
  length: number;
  value: bigint;
}

/** Reads an HmLabel with at most `max` bits. */
export function loadLabel(slice: Slice, max: number): Label {
  if (!slice.loadBit()) {
    let length = 0;
    while (slice.loadBit()) length++;
    if (length > max) throw new Error(`hml_short label longer than ${max}`);
    return { length, value: length > 0 ? slice.loadUintBig(length) : 0n };
  }
  const k = lengthFieldBits(max);
  if (!slice.loadBit()) {
    const length = k > 0 ? slice.loadUint(k) : 0;
    if (length > max) throw new Error(`hml_long label longer than ${max}`);
    return { length, value: length > 0 ? slice.loadUintBig(length) : 0n };
  }
  const bit = slice.loadBit();
  const length = k > 0 ? slice.loadUint(k) : 0;
  if (length > max) throw new Error(`hml_same label longer than ${max}`);
  return { length, value: bit && length > 0 ? (1n << BigInt(length)) - 1n : 0n };
}

/** Bits [from, to) of an n-bit key, as an unsigned integer. */
export function keyBits(key: bigint, keyLength: number, from: number, to: number): bigint {
  if (to <= from) return 0n;
  return (key >> BigInt(keyLength - to)) & ((1n << BigInt(to - from)) - 1n);
}

export function keyBit(key: bigint, keyLength: number, index: number): 0 | 1 {
  return ((key >> BigInt(keyLength - 1 - index)) & 1n) === 1n ? 1 : 0;
}
