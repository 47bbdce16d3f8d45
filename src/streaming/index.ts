/**
 * toncenter's Streaming API v2 (SSE and WebSocket) over the index's committed masterchain blocks
 * (or, with --index off, the verified head's blocks read live: ChainEventSource),
 * with resume by event id. Sits above the index store and pipeline, below the routes: the server
 * mounts `router()` at /api/streaming, hands HTTP upgrades to `handleUpgrade`, and feeds `publish`.
 */
export { StreamingService, SUBSCRIPTION_BODY_LIMIT, WS_MESSAGE_LIMIT, type StreamingOptions, type SourceStatus } from './service';
export { EventBus, formatEventId, parseEventId, ResumeError, type EventId, type ReplaySource, type SourceBlock } from './bus';
export type { StreamEvent, TransactionsEvent, AccountStateChangeEvent, ActionsEvent, ActionItem, TraceEvent, TraceInvalidatedEvent, TransactionItem } from './events';
export { SUBSCRIPTION_BOUNDS } from './subscription';
export { IndexEventBuilder } from './builder';
export { IndexFollower, STREAMING_CHANNEL, type IndexFollowerOptions } from './follower';
export { followIndexThread, THREAD_EVENTS_MODULE } from './threadEvents';
export { pendingEvents } from './pending';
export { ChainEventSource, type ChainEventSourceOptions } from './chainSource';
