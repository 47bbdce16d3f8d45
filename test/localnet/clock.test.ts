import { ChainClock } from '../../src/localnet/ledger/clock';

/** The chain clock: the wall clock plus an offset that only grows (restoring a snapshot resets it). */

test('follows the wall clock plus what was added', () => {
  let wall = 1_700_000_000;
  const clock = new ChainClock(0, () => wall);
  expect(clock.now()).toBe(wall);
  clock.advance(3600);
  expect(clock.now()).toBe(wall + 3600);
  wall += 10;
  expect(clock.now()).toBe(1_700_000_000 + 10 + 3600);
  expect(clock.offsetSeconds).toBe(3600);
  expect(() => clock.advance(-1)).toThrow(RangeError);
  expect(() => clock.advance(0.5)).toThrow(RangeError);
  clock.resetOffset(0);
  expect(clock.now()).toBe(wall);
});

test('a chain resumed ahead of the wall clock goes on from its last block, one behind it from the wall clock', () => {
  const wall = () => 1_700_000_000;
  expect(ChainClock.resumingAt(1_700_086_400, wall).now()).toBe(1_700_086_400);
  expect(ChainClock.resumingAt(1_600_000_000, wall).now()).toBe(1_700_000_000);
});
