import type { ErrorKind } from '../../errors';
import { toActionAnswer, toActionJson, type ActionRow } from '../models/action';
import { toMessageJson, type MessageRow } from '../models/message';
import type { AddressMetadataJson } from '../models/metadata';
import { toJettonTransferJson, toJettonWalletJson, toNftItemJson, toNftTransferJson } from '../models/token';
import { actionsByTrace, tracesJson } from '../models/trace';
import { toTransactionJson } from '../models/transaction';
import type { AddressBookEntry } from '../sql/accounts';
import { addressBookOf } from '../sql/accounts';
import { bookInputsOf, bytesOf, bundleOfText, bundleTextLength, jsonTextLength, parseJsonText, type BundleText, type JsonRows, type JsonText } from '../sql/bundle';
import { TOKEN_LISTS, type JettonTransferDbRow, type JettonWalletDbRow, type NftItemDbRow, type NftTransferDbRow, type TokenList } from '../sql/tokens';
import { traceRowsOf } from '../sql/traces';
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

/**
 * A page of `actions` (sql/actions.ts's queryActionsText): its rows' text, the address book's code
 * hashes and domains when wanted, and the metadata read on the event loop (a small object).
 */
export interface ActionsTask {
  readonly kind: 'actions';
  /** null: no row. */
  readonly rows: JsonText;
  /** Present when the address book is wanted. */
  readonly codes?: JsonText;
  readonly includeAccounts: boolean;
  readonly testnet: boolean;
  readonly metadata: Record<string, AddressMetadataJson>;
}

/**
 * A page of `traces` (or `events`: the same under that key) (sql/traces.ts's queryTracesText): the
 * transactions' bundle, the traces' rows and, with include_actions, their actions, as text; the
 * metadata read on the event loop.
 */
export interface TracesTask {
  readonly kind: 'traces';
  readonly key: 'traces' | 'events';
  /** The bundle's text; `codes` present when the address book is wanted. */
  readonly text: BundleText;
  readonly traces: JsonText;
  readonly includeActions: boolean;
  /** The traces' actions (with includeActions). */
  readonly actions: JsonText;
  readonly testnet: boolean;
  readonly metadata: Record<string, AddressMetadataJson>;
}

/**
 * A page of a token list (`jetton/wallets`, `jetton/transfers`, `nft/items`, `nft/transfers`:
 * sql/tokens.ts's queryTokenPageText): its rows' text, the address book's code hashes and domains
 * when wanted, the metadata read on the event loop.
 */
export interface TokensTask {
  readonly kind: 'tokens';
  readonly list: TokenList;
  /** null: no row. */
  readonly rows: JsonText;
  /** Present when the address book is wanted. */
  readonly codes?: JsonText;
  readonly testnet: boolean;
  readonly metadata: Record<string, AddressMetadataJson>;
}

export type AnswerTask = TransactionsTask | MessagesTask | ActionsTask | TracesTask | TokensTask;

/**
 * A page of transactions whose statement the answer thread runs itself, on a connection of its own
 * (pool.ts's queryAndAssemble): PostgreSQL's text of a large page never reaches the event loop.
 * The driver makes a string of every text it reads (pg 8's protocol parser decodes each field as
 * UTF-8, in binary mode too): reading a 1 000-row page on the event loop cost it the decoding of
 * ~4 MB and the garbage of it, ~10 ms of the loop for a 580 KB page of 100 (docs/benchmarks.md).
 */
export interface TransactionsQueryTask {
  readonly kind: 'transactionsQuery';
  /** sql/bundle.ts's transactionBundleTextStatement. */
  readonly statement: string;
  /** Its bind parameters (byte arrays arrive as Uint8Arrays: worker.ts makes them Buffers again). */
  readonly values: readonly unknown[];
  readonly addressBook: boolean;
  readonly testnet: boolean;
}

/** What a thread answers when a task failed for a reason the client is told (a domain error's kind and text). */
export interface TaskFailure {
  readonly failure: { readonly kind: ErrorKind; readonly message: string };
}

/** The refusal's text of a task holding `size` of JSON text where at most `max` may be assembled. */
export function answerTooLargeText(size: number, max: number): string {
  return `answer too large: ${sizeText(size)} of rows, at most ${sizeText(max)}; ask for fewer rows (a lower limit)`;
}

/** `bytes` as the refusal's text says it: MB with one decimal, or KB under 1 MB. */
function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** The task's JSON texts (what its work grows with, and what may be moved to a thread). */
function textsOf(task: AnswerTask): JsonText[] {
  switch (task.kind) {
    case 'transactions':
      return [task.text.txs, task.text.messages, task.text.states, task.text.codes ?? null];
    case 'messages':
      return [task.rows];
    case 'actions':
    case 'tokens':
      return [task.rows, task.codes ?? null];
    case 'traces':
      return [task.text.txs, task.text.messages, task.text.states, task.text.codes ?? null, task.traces, task.actions];
  }
}

/** What the task's work grows with: its JSON characters (the pool keeps small tasks inline). */
export function taskSize(task: AnswerTask): number {
  return task.kind === 'transactions' ? bundleTextLength(task.text) : textsOf(task).reduce((sum, text) => sum + jsonTextLength(text), 0);
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
 * models.ActionsResponse: what routes/actions.ts's actionsResponse answers for the same rows (the
 * rows those selectActions keeps already; the address book of the accounts they name, in order).
 */
function actionsAnswer(task: ActionsTask): string {
  const list = (parseJsonText<ActionRow<string>[]>(task.rows) ?? []).map(toActionJson);
  let addressBook: Record<string, AddressBookEntry> = {};
  if (list.length > 0 && task.codes !== undefined) {
    const { codes, domains } = bookInputsOf(parseJsonText<JsonRows>(task.codes));
    addressBook = Object.fromEntries(addressBookOf(list.flatMap((a) => a.accounts), codes, task.testnet, domains));
  }
  return JSON.stringify({ actions: list.map((a) => toActionAnswer(a, task.includeAccounts)), address_book: addressBook, metadata: task.metadata });
}

/** models.TracesResponse (or EventsResponse): what routes/traces.ts's tracesResponse answers for the same rows. */
function tracesAnswer(task: TracesTask): string {
  const loaded = loadedOf(bundleOfText(task.text));
  const rows = traceRowsOf(parseJsonText<Record<string, unknown>[]>(task.traces) ?? []);
  const actions = task.includeActions ? actionsByTrace((parseJsonText<ActionRow<string>[]>(task.actions) ?? []).map(toActionJson)) : undefined;
  const traces = tracesJson(rows, loaded, task.includeActions, actions);
  const addresses = transactionAddresses(loaded);
  const addressBook =
    addresses.length === 0 || !loaded.codes ? {} : Object.fromEntries(addressBookOf(addresses, loaded.codes, task.testnet, loaded.domains ?? new Map()));
  return JSON.stringify({ [task.key]: traces, address_book: addressBook, metadata: task.metadata });
}

/** Each token list's converter (models/token.ts), over a row as the driver reads it. */
const TOKEN_CONVERTERS: Readonly<Record<TokenList, (row: Record<string, unknown>) => unknown>> = {
  jetton_wallets: (row) => toJettonWalletJson(row as unknown as JettonWalletDbRow),
  jetton_transfers: (row) => toJettonTransferJson(row as unknown as JettonTransferDbRow),
  nft_items: (row) => toNftItemJson(row as unknown as NftItemDbRow),
  nft_transfers: (row) => toNftTransferJson(row as unknown as NftTransferDbRow),
};

/** The token list's answer: what its route in routes/jettons.ts or routes/nft.ts answered from the driver's rows. */
function tokensAnswer(task: TokensTask): string {
  const spec = TOKEN_LISTS[task.list];
  const rows = parseJsonText<Record<string, unknown>[]>(task.rows) ?? [];
  for (const row of rows) for (const column of spec.bytea) row[column] = bytesOf(row[column]);
  const converted = rows.map(TOKEN_CONVERTERS[task.list]);
  let addressBook: Record<string, AddressBookEntry> = {};
  if (task.codes !== undefined) {
    const named = rows.flatMap((row) => spec.accounts.map((column) => row[column])).filter((a): a is string => typeof a === 'string');
    const { codes, domains } = bookInputsOf(parseJsonText<JsonRows>(task.codes));
    addressBook = Object.fromEntries(addressBookOf(named, codes, task.testnet, domains));
  }
  return JSON.stringify({ [task.list]: converted, address_book: addressBook, metadata: task.metadata });
}

/**
 * The task's byte arrays that may be moved to a thread rather than copied: those over an
 * ArrayBuffer of their own (never a slice of Node's shared pool, which would detach its other
 * Buffers), which the caller drops.
 */
export function movableBuffers(task: AnswerTask): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const text of textsOf(task)) {
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
    case 'actions':
      return actionsAnswer(task);
    case 'traces':
      return tracesAnswer(task);
    case 'tokens':
      return tokensAnswer(task);
  }
}
