import type { Cell } from '@ton/core';

/**
 * What the action classifier reads: one trace's transactions with their inbound and outbound
 * messages (decoded bodies as cells), and what it answers: toncenter's actions. Addresses are in
 * the index's raw upper-case form (`0:ABC…`), hashes in standard base64, as ton-index-go prints
 * them.
 */

export interface TraceMessage {
  /** Message hash, base64. */
  readonly hash: string;
  /** Raw upper-case source; null for an inbound external. */
  readonly source: string | null;
  /** Raw upper-case destination; null for an outbound external (a log). */
  readonly destination: string | null;
  /** nanotons; null for externals. */
  readonly value: bigint | null;
  readonly opcode: number | null;
  readonly body: Cell | null;
  readonly bounce: boolean;
  readonly bounced: boolean;
}

export type AccountStatusWord = 'uninit' | 'frozen' | 'active' | 'nonexist';

export interface TraceTransaction {
  /** Transaction hash, base64. */
  readonly hash: string;
  readonly lt: bigint;
  readonly now: number;
  /** Raw upper-case account. */
  readonly account: string;
  readonly mcSeqno: number;
  /** Compute or action phase failed (toncenter's `aborted`). */
  readonly aborted: boolean;
  readonly origStatus: AccountStatusWord;
  readonly endStatus: AccountStatusWord;
  /** Tick or tock transaction of a special account (no inbound message). */
  readonly tickTock: boolean;
  readonly inMsg: TraceMessage | null;
  readonly outMsgs: readonly TraceMessage[];
}

export interface TraceInput {
  /** toncenter's trace_id (base64 hash of the root transaction). */
  readonly traceId: string;
  readonly externalHash: string | null;
  readonly transactions: readonly TraceTransaction[];
}

/** What the classifier may know about token contracts (from the index's detection). */
export interface JettonWalletInfo {
  readonly owner: string;
  /** The master (asset); null when the wallet's master is not confirmed. */
  readonly jetton: string | null;
}

export interface NftItemInfo {
  readonly index: string;
  readonly collection: string | null;
  /** The item's code hash, base64 (toncenter tells a `.ton` DNS item by it or by its collection). */
  readonly codeHash?: string | null;
}

/** A multisig v2 order the index detected (confirmed by its multisig's `get_order_address`). */
export interface MultisigOrderInfo {
  /** Its signers, raw upper-case (toncenter adds them to the action's accounts). */
  readonly signers: readonly string[];
}

export interface TokenDirectory {
  jettonWallet(address: string): JettonWalletInfo | undefined;
  nftItem(address: string): NftItemInfo | undefined;
  /** Multisig orders; a directory without it knows none (toncenter then leaves the calls generic). */
  multisigOrder?(address: string): MultisigOrderInfo | undefined;
}

/** A directory that knows nothing (classification from the trace's messages alone). */
export const EMPTY_DIRECTORY: TokenDirectory = {
  jettonWallet: () => undefined,
  nftItem: () => undefined,
  multisigOrder: () => undefined,
};

export type ActionDetails = Record<string, unknown>;

/** One action as ton-index-go's `Action` prints it (before `accounts`/`transactions_full` options). */
export interface ActionJson {
  trace_id: string;
  action_id: string;
  start_lt: string;
  end_lt: string;
  start_utime: number;
  end_utime: number;
  trace_end_lt: string;
  trace_end_utime: number;
  trace_mc_seqno_end: number;
  transactions: string[];
  success: boolean;
  type: string;
  details: ActionDetails;
  trace_external_hash?: string;
  accounts: string[];
  finality: 'finalized';
  /**
   * The typed actions (of types newer than v1) this generic one is a step of: ton-index-go keeps
   * them to show a client that does not know the typed action its steps instead (`json:"-"`, never
   * printed).
   */
  ancestor_type?: string[];
}
