/**
 * The local chain's clock: the wall clock plus an offset that `POST /localnet/time` moves
 * forward. Block gen_utime, the emulator's `now` for transactions (and so every contract's
 * NOW) and the lite server's getTime read it, so time travel is seen everywhere at once.
 */

/** Latest time the clock may show: gen_utime is a uint32, and wallets add their timeouts to now. */
export const MAX_CHAIN_TIME = 4_000_000_000;

export function wallClockSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export class ChainClock {
  private offset: number;

  constructor(
    offsetSeconds = 0,
    private readonly wallClock: () => number = wallClockSeconds,
  ) {
    this.offset = offsetSeconds;
  }

  /**
   * A clock for a chain resumed at `lastUtime`: if it was ahead of the wall clock (time travel
   * before it was saved) it goes on from there instead of standing still until the wall clock
   * catches up.
   */
  static resumingAt(lastUtime: number, wallClock: () => number = wallClockSeconds): ChainClock {
    return new ChainClock(Math.max(0, lastUtime - wallClock()), wallClock);
  }

  /** Unix seconds on the chain (the wall clock plus the offset). */
  now(): number {
    return this.wallClock() + this.offset;
  }

  /** Seconds the chain is ahead of the wall clock. */
  get offsetSeconds(): number {
    return this.offset;
  }

  /** Moves the clock `seconds` forward (the caller checks bounds; a negative value is a bug). */
  advance(seconds: number): void {
    if (!Number.isSafeInteger(seconds) || seconds < 0) throw new RangeError(`the chain clock cannot move by ${seconds} s`);
    this.offset += seconds;
  }

  /** Puts the offset back to a saved value (restoring a snapshot: time travel after it is undone). */
  resetOffset(offsetSeconds: number): void {
    this.offset = offsetSeconds;
  }
}
