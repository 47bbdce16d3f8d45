import type { V3Database } from '../db';
import type { LatestStateRow } from '../models/account';
import { friendlyOf, interfacesOfCode, isWalletCodeHash } from '../models/format';
import type { Paging } from '../params/rules';
import { SqlParams, whereClause, matchAny } from './builder';
import { queryBookDomains } from './dns';

/** ton-index-go reads at most this many account states per request (`limit 1000`). */
export const ACCOUNT_STATES_LIMIT = 1000;

/** buildAccountStatesQuery: latest states of the accounts (and/or code hashes); BoCs optional. */
export async function queryLatestStates(
  db: V3Database,
  filter: { accounts: readonly string[]; codeHashes?: readonly Buffer[]; includeBoc: boolean },
): Promise<LatestStateRow[]> {
  const p = new SqlParams();
  const where: string[] = [];
  if (filter.accounts.length > 0) where.push(matchAny(p, 'A.account', filter.accounts));
  if (filter.codeHashes && filter.codeHashes.length > 0) where.push(matchAny(p, 'A.code_hash', filter.codeHashes));
  const bocs = filter.includeBoc ? 'A.data_boc, A.code_boc' : 'null::bytea as data_boc, null::bytea as code_boc';
  return db.query<LatestStateRow>(
    `select A.account, A.hash, A.balance, A.balance_extra_currencies, A.account_status, A.frozen_hash, A.last_trans_hash,
       A.last_trans_lt, A.data_hash, A.code_hash, ${bocs}
     from latest_account_states as A${whereClause(where)} order by A.account limit ${ACCOUNT_STATES_LIMIT}`,
    p.values,
  );
}

/** topAccountsByBalance: the richest accounts, balance descending (account breaks ties). */
export async function queryTopBalances(db: V3Database, paging: Paging): Promise<{ account: string; balance: string }[]> {
  return db.query(
    // Ordered by the bigint column (L.balance), not the text output column of the same name.
    `select L.account, L.balance::text as balance from latest_account_states as L where L.balance is not null
     order by L.balance desc, L.account asc limit $1 offset $2`,
    [paging.limit, paging.offset],
  );
}

export interface AddressBookEntry {
  user_friendly: string | null;
  domain: string | null;
  interfaces: string[] | null;
}

/**
 * QueryAddressBookImpl for raw upper-case addresses: the friendly form by the account's code
 * (wallets and code-less accounts non-bounceable), the domain of a DNS item it owns whose wallet
 * record is itself (the shortest, sql/dns.ts; only for accounts the index holds, as there), interfaces by the
 * code hash (wallets). As ton-index-go: an account the index holds without code (uninit, frozen,
 * nonexist) has `interfaces: null` (its nil slice); one it has never seen gets the code-less form
 * and `[]`.
 */
export async function queryAddressBook(
  db: V3Database,
  rawAddresses: Iterable<string>,
  testnet: boolean,
): Promise<Map<string, AddressBookEntry>> {
  const unique = [...new Set(rawAddresses)];
  if (unique.length === 0) return new Map();
  const rows = await db.query<{ account: string; code_hash: Buffer | null }>(
    'select account, code_hash from latest_account_states where account = any($1)',
    [unique],
  );
  const codes = new Map(rows.map((r) => [r.account, r.code_hash]));
  return addressBookOf(unique, codes, testnet, await queryBookDomains(db, [...codes.keys()]));
}

/**
 * The address book of `rawAddresses` (in their order, each once) from the code hashes of those the
 * index holds (`codes`: absent = never seen) and their domains (sql/dns.ts's rule).
 */
export function addressBookOf(
  rawAddresses: Iterable<string>,
  codes: ReadonlyMap<string, Buffer | null>,
  testnet: boolean,
  domains: ReadonlyMap<string, string>,
): Map<string, AddressBookEntry> {
  const book = new Map<string, AddressBookEntry>();
  for (const raw of rawAddresses) {
    if (book.has(raw)) continue;
    const code = codes.get(raw);
    const interfaces = code === undefined ? [] : code === null ? null : interfacesOfCode(code);
    book.set(raw, { user_friendly: cachedFriendly(raw, code ?? null, testnet), domain: domains.get(raw) ?? null, interfaces });
  }
  return book;
}

/**
 * Friendly forms already made: an address book names the same few accounts request after request
 * (a wallet and its counterparts), and a form is a CRC and a base64 each time. Bounded: cleared
 * when full.
 */
const FRIENDLY_CACHE_LIMIT = 100_000;
const friendlyCache = new Map<string, string | null>();

function cachedFriendly(raw: string, codeHash: Buffer | null, testnet: boolean): string | null {
  const bounceable = !(codeHash === null || isWalletCodeHash(codeHash));
  const key = `${raw}/${bounceable ? 'b' : 'n'}${testnet ? 't' : ''}`;
  let friendly = friendlyCache.get(key);
  if (friendly === undefined) {
    friendly = friendlyOf(raw, codeHash, testnet);
    if (friendlyCache.size >= FRIENDLY_CACHE_LIMIT) friendlyCache.clear();
    friendlyCache.set(key, friendly);
  }
  return friendly;
}
