/**
 * Numbers of the TON protocol that several layers name: workchain and shard ids, and the
 * lite-server error codes. One definition each; everything else imports them from here.
 */

/** The masterchain's workchain id. */
export const MASTERCHAIN = -1;
/** The basechain's workchain id. */
export const BASECHAIN = 0;
/** The shard covering a whole workchain, `0x8000000000000000`, as an unsigned 64-bit id. */
export const FULL_SHARD = 0x8000000000000000n;
/** The same shard as the signed decimal int64 that lite clients and toncenter's JSON write. */
export const FULL_SHARD_SIGNED = '-9223372036854775808';

/** Lite-server error codes (`liteServer.error`), as TON's liteserver and tonlib use them. */
export const LITE_ERROR = {
  /** A query the server cannot parse or answer at all. */
  fatal: -400,
  protoviolation: 621,
  /** `block not found`, `not ready`: the server does not hold what was asked (yet, or any more). */
  notReady: 651,
  timeout: 652,
  /** tonlib's code for a failed connection to the lite server. */
  network: -503,
} as const;
