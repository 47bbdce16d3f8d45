/**
 * The block indexer: follows the verified masterchain, fetches and checks every block, parses it
 * with src/tlb and commits each masterchain block's rows into the index store (src/indexdb).
 * `startIndexThread` is what the server starts (the pipeline in its own worker thread, so the
 * API's event loop only serves); `startIndex` runs it on the calling thread (the `index` command,
 * the thread itself, tests). `IndexService.health()` is what v3 routes check before reading (503
 * while the database is away); `onBlock` feeds the pending traces; the
 * streaming events are built in the index thread (ThreadEventsTarget).
 */
export { isConnectionError } from './connectionErrors';
export { Indexer, type CommittedMcBlock, type IndexStatus, type IndexState, type IndexerOptions } from './indexer';
export { verifiedBlockRoot, BlockFetcher } from './blockFetcher';
export { parseBlock, type ParsedBlock, type ParsedTransaction, type ParsedMessage } from './parseBlock';
export { indexMetrics } from '../metrics';
export { tokenEvents } from './tokenEvents';
export { LiveChainFollower, type ChainBlock, type LiveChainStatus, type LiveChainOptions } from './liveChain';
export { TokenDetector, NO_TOKENS, type BlockTokens, type TouchedAccount } from './tokenDetection';
export { dnsRootsFor, type DomainMethod } from './dns';
export { MetadataFetcher, fetchMetadataDocument, isPrivateAddress, MetadataFetchError, type MetadataFetchOptions, type MetadataRequests } from './metadataFetch';

export { indexEnabled, indexDirFor } from './options';
export { ApiActivityBoard, ApiActivityView, type ApiActivity } from './apiActivity';
export { startIndex, type StartIndexOptions } from './startIndex';
export { startIndexThread, type IndexThreadOptions, type IndexThreadService, type ThreadEventsTarget } from './indexThread';
export type { AnnotationsWanted, StartStreamingInThread } from './threadProtocol';
export { INDEX_THREAD_NICE } from './threadProtocol';
export { INDEX_STARTING, type CommittedBlockRows, type IndexHealth, type IndexQuery, type IndexReads, type IndexService, type LocalIndexService, type OpenIndex } from './service';
