import { Address } from '@ton/core';
import { type V3TransactionJson, walletKindByCodeHash } from '../converters';
import type { EmulatedTrace } from './trace';

/**
 * The answer of toncenter's Emulate API (ton-emulate-go's `EmulateTraceResponse`) from an emulated
 * trace: pure, so a pending store can keep the EmulatedTrace and render it again.
 */

export interface TraceNodeJson {
  tx_hash: string;
  in_msg_hash: string;
  /** ton-index-go's nil slice: null for a transaction that sent messages none of which ran. */
  children: TraceNodeJson[] | null;
}

export interface AddressBookRowJson {
  user_friendly: string;
  domain: null;
  interfaces: string[];
}

export interface EmulateTraceResponseJson {
  mc_block_seqno: number;
  trace: TraceNodeJson;
  transactions: Record<string, V3TransactionJson>;
  actions?: unknown[];
  code_cells?: Record<string, string>;
  data_cells?: Record<string, string>;
  address_book?: Record<string, AddressBookRowJson>;
  metadata?: Record<string, never>;
  rand_seed: string;
  is_incomplete: boolean;
}

export interface EmulateTraceRendering {
  readonly withActions: boolean;
  readonly includeCodeData: boolean;
  readonly includeAddressBook: boolean;
  readonly includeMetadata: boolean;
  readonly testnet: boolean;
}

/** The tree of transactions as ton-index-go assembles it (parse.AssembleTraceTxsFromMap). */
export function traceTree(trace: EmulatedTrace): TraceNodeJson {
  const nodes = new Map<string, TraceNodeJson>();
  let root: TraceNodeJson | undefined;
  for (const tx of trace.transactions) {
    const node: TraceNodeJson = { tx_hash: tx.hash, in_msg_hash: tx.inMsgHash, children: tx.json.out_msgs.length === 0 ? [] : null };
    nodes.set(tx.hash, node);
    const parent = tx.parentHash === null ? undefined : nodes.get(tx.parentHash);
    if (parent) (parent.children ??= []).push(node);
    else root ??= node;
  }
  if (!root) throw new Error('an emulated trace has at least its root transaction');
  return root;
}

/**
 * ton-index-go's address book entry: user-friendly, non-bounceable for wallets and accounts
 * without code (GetAccountAddressFriendly), from the state the trace left the account in.
 */
function addressBookRow(raw: string, codeHash: string | null, testnet: boolean): AddressBookRowJson {
  const bounceable = codeHash !== null && !walletKindByCodeHash(Buffer.from(codeHash, 'base64'));
  return {
    user_friendly: Address.parseRaw(raw).toString({ bounceable, testOnly: testnet, urlSafe: true }),
    domain: null,
    interfaces: [],
  };
}

export function toEmulateTraceResponse(trace: EmulatedTrace, rendering: EmulateTraceRendering): EmulateTraceResponseJson {
  const transactions: Record<string, V3TransactionJson> = {};
  const lastCodeHash = new Map<string, string | null>();
  for (const tx of trace.transactions) {
    transactions[tx.hash] = tx.json;
    lastCodeHash.set(tx.account, tx.json.account_state_after?.code_hash ?? null);
  }
  const response: EmulateTraceResponseJson = {
    mc_block_seqno: trace.mcBlockSeqno,
    trace: traceTree(trace),
    transactions,
    rand_seed: trace.randSeed.toString('base64'),
    is_incomplete: trace.isIncomplete,
  };
  // No action classifier yet: the list toncenter would fill stays empty (docs/emulate.md).
  if (rendering.withActions) response.actions = [];
  if (rendering.includeCodeData) {
    response.code_cells = Object.fromEntries(trace.codeCells);
    response.data_cells = Object.fromEntries(trace.dataCells);
  }
  if (rendering.includeAddressBook) {
    const book: Record<string, AddressBookRowJson> = {};
    for (const [raw, codeHash] of lastCodeHash) book[rawUpper(raw)] = addressBookRow(raw, codeHash, rendering.testnet);
    response.address_book = book;
  }
  // Token metadata needs an index of jettons and NFTs: none here, so an empty map.
  if (rendering.includeMetadata) response.metadata = {};
  return response;
}

function rawUpper(raw: string): string {
  const [workchain, hash] = raw.split(':');
  return `${workchain}:${(hash ?? '').toUpperCase()}`;
}
