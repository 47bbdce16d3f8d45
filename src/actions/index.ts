/**
 * toncenter's action classification (v1 core types): a trace in, actions out (pure). See
 * docs/tokens.md for the types and protocols covered.
 */
export { classifyTrace, selectActions, actionId } from './classify';
export { expandActionTypes, BASIC_ACTION_TYPES } from './versions';
export { EMPTY_DIRECTORY } from './types';
export type {
  ActionJson,
  ActionDetails,
  TraceInput,
  TraceTransaction,
  TraceMessage,
  TokenDirectory,
  JettonWalletInfo,
  NftItemInfo,
} from './types';
export { writeCompletedTraceActions, readTraceInputs, insertActions, MAX_CLASSIFIED_TRACE_TRANSACTIONS } from './indexing';
