import { EventLoopTurns } from '../../src/indexer/turns';

describe('EventLoopTurns', () => {
  it('gives each caller a turn of its own, with the event loop running between them', async () => {
    const turns = new EventLoopTurns();
    const log: string[] = [];
    // Three pieces of work asked for at once (as three blocks' answers resolving in one tick).
    const pieces = [1, 2, 3].map(async (n) => {
      await turns.next();
      log.push(`piece ${n}`);
      // A callback this piece queues for the event loop's next turn runs before the next piece
      // (chained microtasks would run the three pieces first).
      setImmediate(() => log.push(`loop after ${n}`));
    });
    await Promise.all(pieces);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(log).toEqual(['piece 1', 'loop after 1', 'piece 2', 'loop after 2', 'piece 3', 'loop after 3']);
  });

  it('keeps the order of the callers', async () => {
    const turns = new EventLoopTurns();
    const order: number[] = [];
    await Promise.all([5, 4, 3, 2, 1].map(async (n) => turns.next().then(() => order.push(n))));
    expect(order).toEqual([5, 4, 3, 2, 1]);
  });
});
