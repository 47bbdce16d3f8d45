import { QuietCollections } from '../../src/localnet/thread/quietCollections';

const MB = 1024 * 1024;

/** A chain thread's heap and clock under the test's control; collecting leaves `liveMb`. */
function setup(options: { startMb: number; liveMb: number }) {
  let heapMb = options.startMb;
  let now = 0;
  const collections: number[] = [];
  const quiet = new QuietCollections({
    collect: () => {
      collections.push(now);
      heapMb = options.liveMb;
    },
    heapUsed: () => heapMb * MB,
    now: () => now,
    growthFactor: 1.4,
    minGrowthBytes: 64 * MB,
    quietMs: 25,
  });
  return {
    quiet,
    collections,
    setHeap: (mb: number) => (heapMb = mb),
    /** Moves the test's clock and Node's timers together. */
    advance: (ms: number) => {
      now += ms;
      jest.advanceTimersByTime(ms);
    },
  };
}

describe('QuietCollections', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('collects after a seal only once the heap has grown past its threshold', () => {
    const { quiet, collections, setHeap, advance } = setup({ startMb: 400, liveMb: 410 });
    // 1.4 x 400 MB = 560 MB (more than 400 + 64).
    expect(quiet.thresholdBytes).toBe(560 * MB);
    setHeap(559);
    quiet.sealed();
    advance(100);
    expect(collections).toEqual([]);
    setHeap(560);
    quiet.sealed();
    advance(24);
    expect(collections).toEqual([]);
    advance(1);
    // 25 ms after the seal at 100 ms.
    expect(collections).toEqual([125]);
    // What the collection left is the next baseline.
    expect(quiet.thresholdBytes).toBe(410 * 1.4 * MB);
  });

  it('a small heap waits for its minimum growth', () => {
    const { quiet, collections, setHeap, advance } = setup({ startMb: 50, liveMb: 50 });
    expect(quiet.thresholdBytes).toBe(114 * MB);
    setHeap(100);
    quiet.sealed();
    advance(1000);
    expect(collections).toEqual([]);
  });

  it('waits while the readers of a block are answered and until none has run for quietMs', () => {
    const { quiet, collections, setHeap, advance } = setup({ startMb: 400, liveMb: 400 });
    setHeap(700);
    quiet.sealed();
    advance(5);
    quiet.queryStarted(); // the index's getBlock
    advance(100);
    expect(collections).toEqual([]);
    quiet.queryFinished();
    advance(10);
    quiet.queryStarted(); // its next read
    quiet.queryFinished();
    advance(24);
    expect(collections).toEqual([]);
    advance(1);
    expect(collections).toEqual([140]);
    // Due once: the next seal below the new threshold does not collect again.
    quiet.sealed();
    advance(500);
    expect(collections).toEqual([140]);
  });

  it("waits for the round's blocks to be read, though no query ran for quietMs before the reader asked", () => {
    const { quiet, collections, setHeap, advance } = setup({ startMb: 400, liveMb: 400 });
    setHeap(700);
    const mc = Buffer.alloc(32, 1);
    const shard = Buffer.alloc(32, 2);
    quiet.sealed([mc, shard]);
    // The head's proof at once, then the reader's thread waits 80 ms for a core before its getBlocks.
    quiet.queryStarted();
    advance(5);
    quiet.queryFinished();
    advance(80);
    expect(collections).toEqual([]);
    quiet.queryStarted();
    advance(3);
    quiet.blockRead(mc);
    quiet.queryFinished();
    advance(60);
    // The shard block is still unread: no collection, though quiet for 60 ms.
    expect(collections).toEqual([]);
    quiet.queryStarted();
    advance(2);
    quiet.blockRead(shard);
    quiet.queryFinished(); // at 150
    advance(24);
    expect(collections).toEqual([]);
    // Polled at most every quietMs: 25 ms after the last read at the earliest, before the next.
    advance(25);
    expect(collections).toHaveLength(1);
    expect(collections[0]).toBeGreaterThanOrEqual(175);
    expect(collections[0]).toBeLessThanOrEqual(200);
  });

  it('with no reader of the blocks, collects readWaitMs (250 ms) after the seal', () => {
    const { quiet, collections, setHeap, advance } = setup({ startMb: 400, liveMb: 400 });
    setHeap(700);
    quiet.sealed([Buffer.alloc(32, 1)]);
    advance(240);
    expect(collections).toEqual([]);
    advance(35);
    expect(collections).toHaveLength(1);
    expect(collections[0]).toBeGreaterThanOrEqual(250);
    // Another block's read does not count for this round's.
    const { quiet: other, collections: otherCollections, setHeap: setOther, advance: advanceOther } = setup({ startMb: 400, liveMb: 400 });
    setOther(700);
    other.sealed([Buffer.alloc(32, 1)]);
    other.blockRead(Buffer.alloc(32, 9));
    advanceOther(200);
    expect(otherCollections).toEqual([]);
  });

  it('a collection still due when V8 collects by itself (no quiet moment came) is dropped', () => {
    const { quiet, collections, setHeap, advance } = setup({ startMb: 400, liveMb: 400 });
    setHeap(700);
    quiet.sealed();
    quiet.queryStarted(); // a follower catching up: never quiet
    advance(1000);
    setHeap(450);
    quiet.collected();
    quiet.queryFinished();
    advance(1000);
    expect(collections).toEqual([]);
  });

  it("counts from V8's own full collection, and stops", () => {
    const { quiet, collections, setHeap, advance } = setup({ startMb: 400, liveMb: 400 });
    setHeap(300);
    quiet.collected();
    expect(quiet.thresholdBytes).toBe(300 * 1.4 * MB);
    setHeap(430);
    quiet.sealed();
    quiet.stop();
    advance(1000);
    expect(collections).toEqual([]);
  });
});
