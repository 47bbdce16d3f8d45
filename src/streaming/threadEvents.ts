/**
 * The streaming events of the index's committed blocks built in the index thread (the follower
 * and its builder: per block, the reads of the index and the events' JSON), so that the API's
 * thread only fans them out. During a catch-up the index commits a block every few ms; built on
 * the API's loop, their events held it longest of anything the index left there
 * (docs/benchmarks.md, "The API during a catch-up").
 *
 * `startInIndexThread` runs in the index thread (src/indexer/indexThreadWorker.ts loads this
 * module by its path: streaming is above the index in the layers); `followIndexThread` is the
 * API thread's side. Each instance's follower (the writer's, told by its pipeline, and the
 * others', which LISTEN and poll the checkpoint) runs in that instance's index thread.
 */
import type { IndexThreadService, StartStreamingInThread, ThreadEventsTarget } from '../indexer';
import type { SourceBlock } from './bus';
import { IndexEventBuilder, type WantedAnnotations } from './builder';
import { IndexFollower } from './follower';
import { streamingMetrics } from './metrics';
import type { StreamingService } from './service';

/** This module's file, for the index thread to load (the API's thread names it: ThreadEventsTarget.module). */
export const THREAD_EVENTS_MODULE = __filename;

/** How often the follower reads the checkpoint without an announcement, ms. */
const POLL_MS = 1000;

export const startInIndexThread: StartStreamingInThread = (host) => {
  const { config, index } = host;
  let wanted: WantedAnnotations = host.wants;
  const logger = host.logger.child({ component: 'streaming' });
  // The API's thread runs the --metadata-fetch fetcher (it writes the cache v3 reads): the URIs go there.
  const metadataFetch = config.metadataFetch
    ? { request: (uris: readonly string[]) => host.send({ type: 'metadataFetch', uris: [...uris] }) }
    : undefined;
  const builder = new IndexEventBuilder(index.pool, config.network === 'testnet', metadataFetch);
  const follower = new IndexFollower(
    builder,
    {
      wantsAnnotations: () => wanted,
      publish: (block) => host.send({ type: 'events', block }),
      rewind: (seqno) => host.send({ type: 'eventsRewind', seqno }),
      failed: (seqno) => host.send({ type: 'eventsFailed', seqno }),
    },
    logger,
    {
      pollMs: POLL_MS,
      ...(config.databaseUrl ? { sharedDatabase: { connectionString: config.databaseUrl } } : {}),
      resumeAfter: host.after,
    },
  );
  const unblock = index.onBlock((block) => follower.committed(block.mcSeqno, block.tokenStates.jettonWallets));
  const unrollback = index.onRollback((common) => follower.rolledBack(common));
  let stopping = false;
  // The follower reads the index: it starts once the store is open.
  const start = () => {
    if (!stopping)
      follower.start().catch((err: unknown) => logger.warn({ err }, 'streaming: the follower could not read the index at start'));
  };
  if (index.opened()) start();
  else index.ready.then(start, () => {});
  return {
    wants: (next) => {
      wanted = next;
    },
    stop: async () => {
      stopping = true;
      unblock();
      unrollback();
      await follower.stop();
    },
  };
};

/** The API thread's side: the events the index thread built go to `streaming`'s bus. */
export function followIndexThread(index: IndexThreadService, streaming: StreamingService, module = THREAD_EVENTS_MODULE): void {
  const target: ThreadEventsTarget = {
    module,
    after: () => streaming.bus.lastSeqno,
    wants: () => streaming.wantsAnnotations(),
    events: (block) => streaming.publish(block as SourceBlock),
    rewind: (seqno) => streaming.rewind(seqno),
    failed: () => streamingMetrics.blocks.inc({ outcome: 'failed' }),
  };
  streaming.onAnnotationsWanted((wants) => index.annotationsWanted(wants));
  index.streamEvents(target);
}
