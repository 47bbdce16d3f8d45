import { chainThreadCollectsAfterStart, chainThreadYoungGenerationMb } from '../../src/localnet/thread/localnetThread';

describe("the chain thread's young generation", () => {
  it('stays at 12 MB for a fresh or small chain and is 48 MB for one restored from a large state file', () => {
    expect(chainThreadYoungGenerationMb(null)).toBe(12);
    expect(chainThreadYoungGenerationMb(3_105_054)).toBe(12); // the 200-transfer bench chain
    expect(chainThreadYoungGenerationMb(32 * 1024 * 1024 - 1)).toBe(12);
    expect(chainThreadYoungGenerationMb(32 * 1024 * 1024)).toBe(48);
    expect(chainThreadYoungGenerationMb(196_933_210)).toBe(48); // the 4000-transfer bench chain
  });
});

describe("the chain thread's full collection after its start", () => {
  it('is made for a chain restored from a large state file only (a fresh or small chain starts as before)', () => {
    expect(chainThreadCollectsAfterStart(null)).toBe(false);
    expect(chainThreadCollectsAfterStart(3_105_054)).toBe(false);
    expect(chainThreadCollectsAfterStart(32 * 1024 * 1024 - 1)).toBe(false);
    expect(chainThreadCollectsAfterStart(32 * 1024 * 1024)).toBe(true);
    expect(chainThreadCollectsAfterStart(196_933_210)).toBe(true);
  });
});
