import type { ErrorKind } from '../errors';
/**
 * What crosses the boundary between the event loop and a TVM worker thread: plain data and BoC
 * bytes only (structured-clonable, no functions, no @ton/core objects), so a worker can be
 * killed and replaced at any moment without the main thread holding anything of it.
 */

import type { LegacyStackEntryJson, TvmStackEntryJson, V3TransactionJson, V3TransactionPlace } from '../converters';
import type { TonConnectRequest } from './walletMessages';
import type { ConfigText } from './sharedConfig';

/** Runs one get-method (the sandbox emulator's `run_get_method`). */
export interface GetMethodTask {
  readonly kind: 'getMethod';
  /** BoC of the contract code and data. */
  readonly code: Uint8Array;
  readonly data: Uint8Array;
  /** BoC of the `HashmapE 256 ^Cell` of libraries, absent when none. */
  readonly libs?: Uint8Array;
  readonly methodId: number;
  /** BoC of the input stack as a `VmStack` cell. */
  readonly stack: Uint8Array;
  /** Block config, base64 BoC (the emulator's own form), or its shared copy (./sharedConfig.ts). */
  readonly config: ConfigText;
  /** Raw form `wc:hex`. */
  readonly address: string;
  readonly unixTime: number;
  /** Decimal nanotons. */
  readonly balance: string;
  /** Extra currency id → decimal amount. */
  readonly extraCurrency: Readonly<Record<string, string>>;
  /** Decimal gas limit. */
  readonly gasLimit: string;
  /** Render the result stack as toncenter JSON here, off the event loop (runGetMethod / Std). */
  readonly render?: StackRendering;
  /** Entries of the result stack (every level) accepted for rendering or parsing. */
  readonly maxResultEntries: number;
}

export type StackRendering = 'legacy' | 'typed';

/** One inbound message on an account, as the emulator's `emulate_with_emulator` takes it. */
export interface MessageRun {
  /** BoC of the message. */
  readonly message: Uint8Array;
  /** BoC of the ShardAccount. */
  readonly shardAccount: Uint8Array;
  readonly config: ConfigText;
  readonly libs?: Uint8Array;
  readonly now: number;
  /** Decimal logical time of the emulated transaction. */
  readonly lt: string;
  readonly ignoreChksig: boolean;
  /** 32 bytes, hex: the block's random seed the contract sees (the emulator's own when absent). */
  readonly randSeed?: string;
}

/** Emulates one inbound message on an account (estimateFee). */
export interface TransactionTask extends MessageRun {
  readonly kind: 'transaction';
}

/**
 * One transaction of an emulated trace (src/emulate): the message run on the account as
 * TransactionTask does, and everything the trace needs of the result read here, off the event
 * loop: the account's next state, the internal messages it sent (to run next), the libraries
 * they reference, and the transaction rendered in toncenter v3's shape.
 */
export interface TraceStepTask extends MessageRun {
  readonly kind: 'traceStep';
  readonly randSeed: string;
  /** Workchain of the account (the transaction cell holds only its 256-bit id). */
  readonly workchain: number;
  readonly place: V3TransactionPlace;
  /** Return the BoCs of the account's code and data after the transaction. */
  readonly includeCodeData: boolean;
}

/** An internal message a traced transaction sent. */
export interface TracedOutMessage {
  readonly boc: Uint8Array;
  /** Base64 hash of the message cell. */
  readonly hash: string;
  /** Raw form `wc:hex` of the destination. */
  readonly destination: string;
  /** Decimal created_lt. */
  readonly createdLt: string;
}

export interface TraceStepAnswer {
  readonly kind: 'traceStep';
  /** False: the emulator did not make a transaction (an external message the contract refused). */
  readonly accepted: boolean;
  readonly error?: string;
  readonly exitCode?: number;
  readonly transaction?: Uint8Array;
  /** Base64 hash of the transaction cell. */
  readonly hash?: string;
  /** BoC of the account's ShardAccount after the transaction. */
  readonly shardAccount?: Uint8Array;
  /** Internal messages sent, in out_msgs order. */
  readonly outMessages?: TracedOutMessage[];
  /** Hex hashes of the library cells the sent messages reference. */
  readonly libraries?: string[];
  readonly rendered?: V3TransactionJson;
  /** Base64 hash → base64 BoC, when asked. */
  readonly code?: { hash: string; boc: string };
  readonly data?: { hash: string; boc: string };
}

/**
 * Checks a BoC a client wants sent (one root, an inbound external message, within the bounds)
 * and hashes it. Decoding a BoC hashes every cell, tens of microseconds each: a client's 8 192-cell
 * BoC is half a second of CPU, so it is done here, never on the event loop.
 */
export interface ExternalMessageTask {
  readonly kind: 'externalMessage';
  readonly boc: Uint8Array;
}

/** Builds sendQuery's and estimateFee's inbound external message from its parts (tonlib's raw.createQuery). */
export interface QueryMessageTask {
  readonly kind: 'queryMessage';
  /** Raw form `wc:hex`. */
  readonly address: string;
  /** BoCs as the client sent them; init parts may be empty. */
  readonly body: Uint8Array;
  readonly initCode: Uint8Array;
  readonly initData: Uint8Array;
}

/** Builds the external message of a TON Connect request (src/chain/walletMessages.ts; 422 for bad parts). */
export interface TonConnectMessageTask {
  readonly kind: 'tonConnectMessage';
  readonly request: TonConnectRequest;
}

export interface TonConnectMessageAnswer {
  readonly kind: 'tonConnectMessage';
  /** BoC of the inbound external message. */
  readonly boc: Uint8Array;
}

/** Makes a thread load its code and create its emulator, so the first real task does not wait. */
export interface WarmTask {
  readonly kind: 'warm';
}

/** What a thread receives: a task and the time its caller stops waiting (ms since the epoch). */
export type DeadlinedTask = TvmTask & { readonly deadline: number };

export type TvmTask =
  GetMethodTask | TransactionTask | TraceStepTask | ExternalMessageTask | QueryMessageTask | TonConnectMessageTask | WarmTask;

export interface GetMethodAnswer {
  readonly kind: 'getMethod';
  readonly exitCode: number;
  readonly gasUsed: number;
  /** BoC of the output `VmStack`. */
  readonly stack: Uint8Array;
  /** Hex hash of a library the code needed and did not get. */
  readonly missingLibrary?: string;
  /** The result stack as toncenter JSON, when the task asked for a rendering. */
  readonly rendered?: LegacyStackEntryJson[] | TvmStackEntryJson[];
}

export interface TransactionAnswer {
  readonly kind: 'transaction';
  /** BoC of the transaction, absent when the message was not accepted. */
  readonly transaction?: Uint8Array;
  /** BoC of the output action list, when there is one. */
  readonly actions?: Uint8Array;
}

export interface ExternalMessageAnswer {
  readonly kind: 'externalMessage';
  /** Base64 hash of the message cell. */
  readonly hash: string;
  /** Base64 hash of its normalized form (TEP-467). */
  readonly hashNorm: string;
  /** Raw form `wc:hex` of the destination. */
  readonly destination: string;
}

export interface QueryMessageAnswer {
  readonly kind: 'queryMessage';
  /** BoC of the built message. */
  readonly boc: Uint8Array;
  /** Distinct cells and bits below the root (what the import fee charges for), decimal. */
  readonly refCells: string;
  readonly refBits: string;
  /** Hex hashes of the library cells the message references (estimateFee fetches them). */
  readonly libraries: string[];
}

/** The emulator ran and refused the input (bad stack, bad config...): the engine is still sound. */
export interface RefusedAnswer {
  readonly kind: 'refused';
  readonly error: string;
}

/** The input or the result is over a bound (toncenter's 533 depth, 422 sizes): the caller's error. */
export interface RejectedAnswer {
  readonly kind: 'rejected';
  readonly errorKind: ErrorKind;
  readonly error: string;
}

/** The emulator trapped or threw: the worker dropped that wasm instance. */
export interface TrappedAnswer {
  readonly kind: 'trapped';
  readonly error: string;
}

/** The task's deadline had passed when a thread took it: nothing ran. */
export interface ExpiredAnswer {
  readonly kind: 'expired';
}

export interface WarmAnswer {
  readonly kind: 'warm';
  /** worker_threads id of the thread that ran it. */
  readonly threadId: number;
}

export type TvmAnswer =
  | WarmAnswer
  | ExpiredAnswer
  | GetMethodAnswer
  | TransactionAnswer
  | TraceStepAnswer
  | ExternalMessageAnswer
  | QueryMessageAnswer
  | TonConnectMessageAnswer
  | RefusedAnswer
  | RejectedAnswer
  | TrappedAnswer;
