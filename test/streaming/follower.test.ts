import pino from 'pino';
import type { IndexEventBuilder } from '../../src/streaming';
import { IndexFollower } from '../../src/streaming';

/** A follower over a builder of empty blocks at checkpoint `committed()`, recording what its sink is told. */
function recordingFollower(committed: () => number, options: ConstructorParameters<typeof IndexFollower>[3]) {
  const built: number[] = [];
  const references: number[] = [];
  const rewinds: number[] = [];
  const builder = {
    committedSeqno: async () => committed(),
    build: async (seqno: number) => ({ mcSeqno: seqno, committedAt: Date.now(), events: [] }),
  } as unknown as IndexEventBuilder;
  const sink = {
    wantsAnnotations: () => ({ addressBook: false, metadata: false }),
    publish: (b: { mcSeqno: number; reference?: true }) => {
      built.push(b.mcSeqno);
      if (b.reference) references.push(b.mcSeqno);
    },
    rewind: (s: number) => rewinds.push(s),
    failed: () => {},
  };
  return { follower: new IndexFollower(builder, sink, pino({ level: 'silent' }), options), built, references, rewinds };
}

/** The follower against a real in-process builder stand-in: each block once, in order, stale reads never rewind. */
test('IndexFollower publishes each committed block once and in order; a stale checkpoint read is not a rewind', async () => {
  let checkpoint = 3;
  const { follower, built, references, rewinds } = recordingFollower(() => checkpoint, { pollMs: 20 });
  await follower.start();
  checkpoint = 6;
  follower.committed(6);
  follower.committed(4);
  await new Promise((resolve) => setTimeout(resolve, 100));
  checkpoint = 8;
  await new Promise((resolve) => setTimeout(resolve, 100));
  follower.rolledBack(7);
  await follower.stop();
  expect(built).toEqual([3, 4, 5, 6, 7, 8]);
  // The first is the bus's reference for resumes (committed before the follower started), not news.
  expect(references).toEqual([3]);
  expect(rewinds).toEqual([7]);
});

/** A restarted index thread's follower goes on after the API's last block: the committed one again would be a rewind to the bus. */
test('IndexFollower with resumeAfter publishes only the blocks after it, not the committed one again', async () => {
  const { follower, built, references, rewinds } = recordingFollower(() => 7, { pollMs: 1000, resumeAfter: 5 });
  await follower.start();
  await new Promise((resolve) => setTimeout(resolve, 50));
  await follower.stop();
  expect(built).toEqual([6, 7]);
  expect(references).toEqual([]);
  expect(rewinds).toEqual([]);
});

/** A block whose events cannot be built is told to the sink (the API's thread counts it) and built again at the next poll. */
test('IndexFollower tells the sink of a block it could not build and builds it at the next poll', async () => {
  const built: number[] = [];
  const failures: number[] = [];
  let failOnce = true;
  const builder = {
    committedSeqno: async () => 6,
    build: async (seqno: number) => {
      if (seqno === 5 && failOnce) {
        failOnce = false;
        throw new Error('the index went away');
      }
      return { mcSeqno: seqno, committedAt: Date.now(), events: [] };
    },
  } as unknown as IndexEventBuilder;
  const sink = {
    wantsAnnotations: () => ({ addressBook: false, metadata: false }),
    publish: (b: { mcSeqno: number }) => built.push(b.mcSeqno),
    rewind: () => {},
    failed: (s: number) => failures.push(s),
  };
  const follower = new IndexFollower(builder, sink, pino({ level: 'silent' }), { pollMs: 20, resumeAfter: 4 });
  await follower.start();
  await new Promise((resolve) => setTimeout(resolve, 150));
  await follower.stop();
  expect(failures).toEqual([5]);
  expect(built).toEqual([5, 6]);
});
