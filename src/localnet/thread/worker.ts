/**
 * The local chain's worker thread: the chain (emulator, sealing, journal, lite server on its own
 * TCP port) runs here, so its CPU work (decoding a large message, executing, sealing) never
 * holds the API's event loop. The API reaches the chain as any lite client does, over ADNL/TCP;
 * the `/localnet/*` controls come over this thread's message port (protocol.ts).
 */
import { Address } from '@ton/core';
import { constants as perfConstants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import { useNativeCellHashing } from '../../cells';
import { fullCollection } from '../../tvm';
import { LocalnetControls } from '../controls';
import { describeLocalnet, startLocalnet, type Localnet } from '../index';
import { ControlRefusedError } from '../ledger/errors';
import type { BlockId } from '../ledger/ids';
import type { StoredBlock } from '../ledger/store';
import type { LiteActivity } from '../liteserver/dispatcher';
import type { ControlError, ControlRequest, FromWorker, StartCollection, ToWorker, WorkerData } from './protocol';
import { QuietCollections } from './quietCollections';

if (!parentPort) throw new Error('the local chain worker runs in a worker thread');
const port = parentPort;
const { options, logLevel, collectAfterStart } = workerData as WorkerData;
const send = (message: FromWorker): void => port.postMessage(message);

function controlError(err: unknown): ControlError {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof ControlRefusedError) return { kind: err.reason, message };
  return { kind: 'other', message };
}

async function run(localnet: Localnet, controls: LocalnetControls, request: ControlRequest): Promise<unknown> {
  switch (request.op) {
    case 'fund':
      return controls.fund(Address.parseRaw(request.address), request.amount);
    case 'mine':
      return controls.mine();
    case 'moveClock':
      return controls.moveClock(request.change);
    case 'snapshot':
      return controls.snapshot();
    case 'restore':
      return controls.restore(request.id);
    case 'status':
      return controls.status();
    case 'stop':
      await localnet.stop();
      return null;
  }
}

async function main(): Promise<void> {
  // Sealing blocks and building proofs hash cells: Node's SHA-256 in this thread too.
  useNativeCellHashing();
  // The chain's own logger (src/localnet imports no logging module of the server); same level, same stdout.
  const logger = pino({ level: logLevel }).child({ component: 'localnet' });
  const { seed, reportSeals, quietCollections: collectWhenQuiet = true, ...rest } = options;
  // The collector's pauses on this thread (from its start), with each seal: the bench tells a
  // stall of the chain's thread by its collector from one of its work.
  let gcMs = 0;
  let majorGcMs = 0;
  const collectGarbage = fullCollection();
  const thresholds = typeof collectWhenQuiet === 'object' ? { growthFactor: collectWhenQuiet.growthFactor, minGrowthBytes: collectWhenQuiet.minGrowthMb * 1048576 } : {};
  let quietCount = 0;
  const quiet =
    collectWhenQuiet !== false && collectGarbage
      ? new QuietCollections({
          collect: collectGarbage,
          heapUsed: () => getHeapStatistics().used_heap_size,
          ...thresholds,
          onCollection: (collection) => {
            quietCount++;
            logger.debug({ ms: Math.round(collection.ms), heapBeforeMb: mb(collection.heapBeforeBytes), heapAfterMb: mb(collection.heapAfterBytes) }, 'localnet: full collection between blocks');
          },
        })
      : null;
  if (reportSeals || quiet) {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const major = (entry as { detail?: { kind?: number } }).detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR;
        gcMs += entry.duration;
        if (major) majorGcMs += entry.duration;
        // V8's own full collections (and ours, seen again here) move the baseline the next is counted from.
        if (major) quiet?.collected();
      }
    }).observe({ entryTypes: ['gc'] });
  }
  const localnet = await startLocalnet({
    ...rest,
    ...(seed !== undefined ? { seed: typeof seed === 'string' ? seed : Buffer.from(seed) } : {}),
    ...(quiet ? { liteActivity: sendsExcluded(quiet) } : {}),
    logger,
  });
  // Restoring a large chain leaves its own garbage (the 4000-transfer bench chain: heap 1 043-1 069
  // -> 824 MB, 0.7-1.5 s); collected here, before any client knows the chain is up, rather than by
  // V8's first full collection while the chain seals under traffic, where its marking held seals
  // for 0.9-1.5 s (docs/benchmarks.md, helper `live300e`). The chain's timer already runs: its
  // first seal waits for this.
  const startCollection = collectAfterStart && collectGarbage ? collectNow(collectGarbage) : null;
  if (startCollection) logger.info(startCollection, 'localnet: full collection after the restore');
  // The restored heap (collected or not) is what the next collection is counted from.
  quiet?.collected();
  const controls = new LocalnetControls(localnet);
  let previousTops: readonly BlockId[] = [];
  localnet.chain.onBlock((block) => {
    if (block.id.workchain !== -1) return;
    if (reportSeals) {
      send({
        type: 'sealed',
        seqno: block.id.seqno,
        at: performance.timeOrigin + performance.now(),
        gcMs,
        majorGcMs,
        heapMb: heapMb(),
        quietCollections: quietCount,
      });
    }
    quiet?.sealed(roundBlocks(block, previousTops));
    previousTops = block.shardTops;
  });
  port.on('message', (message: ToWorker) => {
    run(localnet, controls, message.request).then(
      (result) => send({ type: 'reply', id: message.id, result }),
      (err: unknown) => send({ type: 'reply', id: message.id, error: controlError(err) }),
    );
  });
  send({
    type: 'ready',
    host: localnet.host,
    port: localnet.port,
    publicKey: new Uint8Array(localnet.publicKey),
    globalConfig: localnet.globalConfig,
    globalConfigJson: localnet.globalConfigJson,
    description: describeLocalnet(localnet),
    startCollection,
  });
}

function mb(bytes: number): number {
  return Math.round(bytes / 1048576);
}

function heapMb(): number {
  return mb(getHeapStatistics().used_heap_size);
}

/** The root hashes of a round's new blocks: the masterchain block's and the shard tops it registers anew. */
function roundBlocks(mc: StoredBlock, previousTops: readonly BlockId[]): Buffer[] {
  const fresh = mc.shardTops.filter((top) => !previousTops.some((before) => before.rootHash.equals(top.rootHash)));
  return [mc.id.rootHash, ...fresh.map((top) => top.rootHash)];
}

/** The lite queries that read the chain; a send only waits for a collection, nobody reads after it. */
function sendsExcluded(quiet: QuietCollections): LiteActivity {
  return {
    started: (kind) => {
      if (kind !== 'liteServer.sendMessage') quiet.queryStarted();
    },
    finished: (kind) => {
      if (kind !== 'liteServer.sendMessage') quiet.queryFinished();
    },
    blockServed: (rootHash) => quiet.blockRead(rootHash),
  };
}

function collectNow(collectGarbage: () => void): StartCollection {
  const heapBeforeMb = heapMb();
  const start = performance.now();
  collectGarbage();
  return { ms: Math.round(performance.now() - start), heapBeforeMb, heapAfterMb: heapMb() };
}

main().catch((err: unknown) => send({ type: 'failed', message: err instanceof Error ? err.message : String(err) }));
