import { CommitNotices, type CommitNotice } from '../../src/indexer/commitNotices';

/** The index thread's news of commits to the API's thread: each block's rows once, in order, in at most one message per interval. */
describe('commit notices', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('sends a lone commit at once and batches the commits of a burst', async () => {
    const sent: CommitNotice<string>[] = [];
    const notices = new CommitNotices<string>(50, (notice) => sent.push(notice));
    notices.committed(1, 'r1');
    // The first goes at once (a live block is not held back).
    expect(sent).toEqual([{ seqno: 1, blocks: ['r1'] }]);
    for (let seqno = 2; seqno <= 40; seqno++) notices.committed(seqno, `r${seqno}`);
    expect(sent).toHaveLength(1);
    await sleep(80);
    // The burst in one message: the newest seqno and every block's rows in order.
    expect(sent).toHaveLength(2);
    expect(sent[1]!.seqno).toBe(40);
    expect(sent[1]!.blocks).toEqual(Array.from({ length: 39 }, (_, i) => `r${i + 2}`));
    // A commit after a quiet interval goes at once again.
    await sleep(60);
    notices.committed(41);
    expect(sent).toHaveLength(3);
    expect(sent[2]).toEqual({ seqno: 41, blocks: [] });
  });

  it('flush sends what is held (before a rollback, at stop) and nothing when nothing is', () => {
    const sent: CommitNotice<number>[] = [];
    const notices = new CommitNotices<number>(10_000, (notice) => sent.push(notice));
    notices.committed(5, 5);
    notices.committed(6, 6);
    notices.committed(7, 7);
    expect(sent).toHaveLength(1);
    notices.flush();
    expect(sent).toEqual([
      { seqno: 5, blocks: [5] },
      { seqno: 7, blocks: [6, 7] },
    ]);
    notices.flush();
    expect(sent).toHaveLength(2);
  });
});
