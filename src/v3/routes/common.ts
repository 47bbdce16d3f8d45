import type { MessageRow } from '../models/message';
import type { Bytes } from '../models/format';
import { toTransactionJson } from '../models/transaction';
import { parseGroup, type V3Query } from '../params/query';
import {
  checkPaging,
  MAX_OFFSET,
  readList,
  readSingle,
  toAccount,
  toHash,
  toInt32,
  toShard,
  toUint64,
  toUtime,
  type Paging,
} from '../params/rules';
import { addressBookOf, queryAddressBook, type AddressBookEntry } from '../sql/accounts';
import { messagesOf, transactionAddresses, type LoadedTransactions, type LoadOptions } from '../sql/transactions';
import { JsonBytes, type RouteContext, type RouteParameter } from './route';
import { assembleInline } from '../answers/pool';
import { transactionBundleText, transactionBundleTextStatement, type BundleText } from '../sql/bundle';
import type { AnswerTask } from '../answers/assemble';
import type { AddressMetadataJson } from '../models/metadata';
import { queryAddressMetadata } from '../sql/metadata';
import { parseJsonText } from '../sql/bundle';
import { queryTokenPageText, type TokenList } from '../sql/tokens';

/** models.BlockRequest. */
export function blockGroup(query: V3Query) {
  return parseGroup((field) => ({
    workchain: field(() => readSingle(query, 'workchain', toInt32)),
    shard: field(() => readSingle(query, 'shard', toShard)),
    seqno: field(() => readSingle(query, 'seqno', toInt32)),
    rootHash: field(() => readSingle(query, 'root_hash', toHash)),
    fileHash: field(() => readSingle(query, 'file_hash', toHash)),
    mcSeqno: field(() => readSingle(query, 'mc_seqno', toInt32)),
  }));
}

/** models.UtimeRequest. */
export function utimeGroup(query: V3Query) {
  return parseGroup((field) => ({
    startUtime: field(() => readSingle(query, 'start_utime', toUtime)),
    endUtime: field(() => readSingle(query, 'end_utime', toUtime)),
  }));
}

/** models.LtRequest. */
export function ltGroup(query: V3Query) {
  return parseGroup((field) => ({
    startLt: field(() => readSingle(query, 'start_lt', toUint64)),
    endLt: field(() => readSingle(query, 'end_lt', toUint64)),
  }));
}

/** models.LimitRequest, then limitQuery/getSortOrder's checks. */
export function pagingGroup(query: V3Query): Paging {
  const raw = parseGroup((field) => ({
    limit: field(() => readSingle(query, 'limit', toInt32)),
    offset: field(() => readSingle(query, 'offset', toInt32)),
    sort: query.single('sort'),
  }));
  return checkPaging(raw);
}

/** `seqno` read as fiber's c.QueryInt: anything unreadable is 0. */
export function queryIntOrZero(query: V3Query, name: string): number {
  const value = query.single(name);
  const parsed = value === undefined ? undefined : toInt32(value);
  return parsed ?? 0;
}

export const hashList = (query: V3Query, name: string) => readList(query, name, toHash);
export const accountList = (query: V3Query, name: string) => readList(query, name, toAccount);

export const PAGING_PARAMETERS: readonly RouteParameter[] = [
  { name: 'limit', type: 'integer', description: 'Rows to return, 1..1000 (default 100).' },
  { name: 'offset', type: 'integer', description: `Rows to skip (at most ${MAX_OFFSET}, see docs/v3.md).` },
  { name: 'sort', type: 'string', description: 'asc or desc (also a, d).' },
];
export const RANGE_PARAMETERS: readonly RouteParameter[] = [
  { name: 'start_utime', type: 'integer' },
  { name: 'end_utime', type: 'integer' },
  { name: 'start_lt', type: 'integer' },
  { name: 'end_lt', type: 'integer' },
];

/**
 * `address_book` of a set of raw addresses, or `{}` when the client asked for none. `codes`: their
 * code hashes when the answer's statement looked them up already (no statement of its own then).
 */
export async function addressBookFor(
  context: RouteContext,
  raw: Iterable<string>,
  known?: { codes?: ReadonlyMap<string, Buffer | null>; domains?: ReadonlyMap<string, string> },
): Promise<Record<string, AddressBookEntry>> {
  if (context.settings.noAddressBook) return {};
  const book = known?.codes
    ? addressBookOf(raw, known.codes, context.settings.testnet, known.domains ?? new Map())
    : await queryAddressBook(context.db, raw, context.settings.testnet);
  return Object.fromEntries(book);
}

/** Load the address book's code hashes with the transactions (one statement) unless none is wanted. */
export function loadOptions(context: RouteContext): LoadOptions {
  return { addressBook: !context.settings.noAddressBook };
}

/**
 * models.TransactionsResponse of rows the driver parsed, as objects: what the routes answered before
 * transactionsAnswer, and the reference its bytes are checked against (test/e2e/v3AnswerThreads.test.ts).
 */
export async function transactionsResponse<B extends Bytes>(context: RouteContext, loaded: LoadedTransactions<B>) {
  const transactions = loaded.rows.map((row) => toTransactionJson(row, messagesOf(loaded, row), loaded.states));
  const addressBook = loaded.rows.length === 0 ? {} : await addressBookFor(context, transactionAddresses(loaded), loaded);
  return { transactions, address_book: addressBook };
}

/**
 * models.TransactionsResponse of a page's JSON text (sql/transactions.ts's *Text reads), assembled
 * where the context says (answers/pool.ts: a thread for a large page), as its JSON bytes: the same
 * bytes transactionsResponse's answer is written as.
 */
export async function transactionsAnswer(context: RouteContext, text: BundleText): Promise<JsonBytes> {
  return assembled(context, { kind: 'transactions', text, testnet: context.settings.testnet });
}

/** Pages of more rows than this are read and assembled in an answer thread where one can: a few rows cost the hop more. */
const THREAD_PAGE_ABOVE_ROWS = 10;

/**
 * models.TransactionsResponse of a page (`page` selects TRANSACTION_JSON_COLUMNS, its bind
 * parameters in `values`; at most `limit` rows): read and assembled in an answer thread when the
 * threads read the index themselves (a PostgreSQL server) and the page may be large, so that its
 * text never reaches the event loop; else read here and assembled where its size says.
 */
export async function transactionsPageAnswer(context: RouteContext, page: { text: string; values: unknown[] }, limit: number): Promise<JsonBytes> {
  const options = loadOptions(context);
  const queryAndAssemble = context.answers?.queryAndAssemble;
  if (queryAndAssemble && limit > THREAD_PAGE_ABOVE_ROWS) {
    const statement = transactionBundleTextStatement(page.text, options);
    return new JsonBytes(await queryAndAssemble({ kind: 'transactionsQuery', statement, values: page.values, addressBook: options.addressBook, testnet: context.settings.testnet }));
  }
  return transactionsAnswer(context, await transactionBundleText(context.db, page.text, page.values, options));
}

/** A task's answer (answers/assemble.ts), assembled where the context says, as its JSON bytes. */
export async function assembled(context: RouteContext, task: AnswerTask): Promise<JsonBytes> {
  return new JsonBytes(context.answers ? await context.answers.assemble(task) : assembleInline(task));
}

/**
 * A token list's answer (`{<list>, address_book, metadata}`) of its page's statement (sql/tokens.ts's
 * build*Statement), read as PostgreSQL's JSON text and assembled where the context says (a thread
 * for a large page); the metadata's statements on the event loop.
 */
export async function tokenListAnswer(context: RouteContext, list: TokenList, page: { text: string; values: unknown[] }): Promise<JsonBytes> {
  const text = await queryTokenPageText(context.db, list, page, !context.settings.noAddressBook);
  const metadata = context.settings.noMetadata ? {} : await metadataFor(context, parseJsonText<string[]>(text.accounts) ?? []);
  return assembled(context, { kind: 'tokens', list, rows: text.rows, ...(text.codes !== undefined ? { codes: text.codes } : {}), testnet: context.settings.testnet, metadata });
}

export function messageAddresses(rows: readonly MessageRow[]): string[] {
  return rows.flatMap((m) => [m.source, m.destination].filter((a): a is string => a !== null));
}

export const raws = (query: V3Query, name: string) => accountList(query, name).map((a) => a.raw);

/** QueryMetadataImpl for the accounts an answer names (sql/metadata.ts), `{}` when the client asked for none. */
export async function metadataFor(context: RouteContext, addresses: readonly (string | null)[]): Promise<Record<string, AddressMetadataJson>> {
  if (context.settings.noMetadata) return {};
  return queryAddressMetadata(context.db, addresses, context.metadataFetch, context.offIndex);
}

/** `address_book` of the accounts an answer names, `{}` when it names none. */
export async function bookOf(context: RouteContext, addresses: (string | null)[]) {
  const named = addresses.filter((a): a is string => a !== null);
  return named.length === 0 ? {} : addressBookFor(context, named);
}

/** `address_book` and `metadata` of the accounts an answer names (the token routes' pair). */
export async function bookAndMetadataOf(context: RouteContext, addresses: (string | null)[]) {
  return { address_book: await bookOf(context, addresses), metadata: await metadataFor(context, addresses) };
}

/**
 * The owner of the event routes: `owner_address` (a list), else `address` (one, taken only when
 * it reads as an address: ton-index-go ignores an unreadable one).
 */
export function ownerList(query: V3Query): string[] {
  const owners = raws(query, 'owner_address');
  if (owners.length > 0 || query.list('owner_address').length > 0) return owners;
  const alias = query.single('address');
  const parsed = alias ? toAccount(alias) : undefined;
  return parsed ? [parsed.raw] : [];
}
