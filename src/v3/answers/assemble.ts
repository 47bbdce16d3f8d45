import { toMessageJson, type MessageRow } from '../models/message';
import type { AddressMetadataJson } from '../models/metadata';
import { toTransactionJson } from '../models/transaction';
import type { AddressBookEntry } from '../sql/accounts';
import { addressBookOf } from '../sql/accounts';
import { bundleOfText, bundleTextLength, jsonTextLength, parseJsonText, type BundleText, type JsonText } from '../sql/bundle';
import { loadedOf, messagesOf, transactionAddresses } from '../sql/transactions';

/**
 * The CPU-heavy part of a v3 answer: PostgreSQL's JSON text in, the answer's JSON text out. The
 * same function runs on the event loop (small answers, or no threads) and in an answer thread
 * (pool.ts), so both give the same bytes. Its input is plain data (strings and flags): it crosses
 * to a thread as the text PostgreSQL sent, never as objects built on the event loop.
 */

/** A page of transactions (`transactions`, `transactionsByMessage`, `transactionsByMasterchainBlock`, `adjacentTransactions`). */
export interface TransactionsTask {
  readonly kind: 'transactions';
  /** The bundle's text; `codes` present when the address book is wanted. */
  readonly text: BundleText;
  readonly testnet: boolean;
}

/**
 * A page of `messages`: its rows' text (sql/messageText.ts) and the address book and metadata
 * read on the event loop (small objects, cloned across).
 */
export interface MessagesTask {
  readonly kind: 'messages';
  /** null: no row. */
  readonly rows: JsonText;
  readonly addressBook: Record<string, AddressBookEntry>;
  readonly metadata: Record<string, AddressMetadataJson>;
}

export type AnswerTask = TransactionsTask | MessagesTask;

/** What the task's work grows with: its JSON characters (the pool keeps small tasks inline). */
export function taskSize(task: AnswerTask): number {
  return task.kind === 'transactions' ? bundleTextLength(task.text) : jsonTextLength(task.rows);
}

/**
 * models.TransactionsResponse of a bundle's text, written: what routes/common.ts's
 * transactionsResponse answers for the same rows (JSON.parse is what the driver's json parser
 * does; the address book from the code hashes the statement read).
 */
function transactionsAnswer(task: TransactionsTask): string {
  const loaded = loadedOf(bundleOfText(task.text));
  const transactions = loaded.rows.map((row) => toTransactionJson(row, messagesOf(loaded, row), loaded.states));
  const addressBook =
    loaded.rows.length === 0 || !loaded.codes
      ? {}
      : Object.fromEntries(addressBookOf(transactionAddresses(loaded), loaded.codes, task.testnet, loaded.domains ?? new Map()));
  return JSON.stringify({ transactions, address_book: addressBook });
}

/** models.MessagesResponse: what routes/messages.ts answered from the driver's rows, written. */
function messagesAnswer(task: MessagesTask): string {
  const rows = parseJsonText<MessageRow<string>[]>(task.rows) ?? [];
  return JSON.stringify({ messages: rows.map(toMessageJson), address_book: task.addressBook, metadata: task.metadata });
}

/**
 * The task's byte arrays that may be moved to a thread rather than copied: those over an
 * ArrayBuffer of their own (never a slice of Node's shared pool, which would detach its other
 * Buffers), which the caller drops.
 */
export function movableBuffers(task: AnswerTask): ArrayBuffer[] {
  const texts = task.kind === 'transactions' ? [task.text.txs, task.text.messages, task.text.states, task.text.codes] : [task.rows];
  const out: ArrayBuffer[] = [];
  for (const text of texts) {
    if (text instanceof Uint8Array && text.byteOffset === 0 && text.byteLength === text.buffer.byteLength && text.buffer instanceof ArrayBuffer) out.push(text.buffer);
  }
  return out;
}

/** The answer's JSON text. */
export function assembleAnswer(task: AnswerTask): string {
  switch (task.kind) {
    case 'transactions':
      return transactionsAnswer(task);
    case 'messages':
      return messagesAnswer(task);
  }
}
