import { Address, beginCell, Cell, CellType, Dictionary, parseTuple, TupleItem } from '@ton/core';
import { Executor } from '@ton/sandbox';
import type { LiteClient } from 'ton-lite-client';
import { ApiError } from '../errors';
import { parseTvmInteger } from '../converters';
import { crc16 } from '../params/address';
import { AccountRead, readAccount } from './accountState';
import { ChainConfig, configAt } from './chainConfig';
import { invalid } from './define';

/**
 * Get-methods run the way toncenter runs them: locally, in the TVM (tonlib there, the sandbox
 * emulator here), on the account state downloaded from the lite server at the requested block,
 * with that block's config and the public libraries the code needs. Running locally rather than
 * through liteServer.runSmcMethod is what yields `gas_used`, and it works for historical states
 * and library cells on any lite server.
 */

/** toncenter's C++ server gives get-methods 4 000 000 gas (its patch of tonlib). */
export const GET_METHOD_GAS_LIMIT = 4_000_000n;
/** TVM exit code of a contract without code (tonlib reports it for uninitialised accounts). */
export const NO_CODE_EXIT_CODE = -13;
/** Lite servers answer at most this many libraries per getLibraries query. */
const LIBRARIES_PER_QUERY = 16;
/** Libraries found missing during execution are fetched and the method re-run at most this often. */
const MAX_LIBRARY_ROUNDS = 4;
/** Cells visited when looking for library references in code and data. */
const LIBRARY_SCAN_LIMIT = 20_000;

export interface GetMethodOutcome {
  exitCode: number;
  gasUsed: number;
  /** Bottom of the stack first. */
  stack: TupleItem[];
}

export interface LoadedContract {
  /** The state the methods run on (`block_id`, `last_transaction_id`). */
  read: AccountRead;
  run(method: string | number, stack: TupleItem[]): Promise<GetMethodOutcome>;
}

let executor: Promise<Executor> | undefined;

/** One emulator per process: it is stateless between calls and expensive to instantiate. */
export function sharedExecutor(): Promise<Executor> {
  executor ??= Executor.create();
  return executor;
}

/** tonlib's rule: a name that reads as an integer is a method id, any other name is hashed. */
export function methodIdOf(method: string | number): number {
  const text = typeof method === 'number' ? String(method) : method;
  const numeric = parseTvmInteger(text);
  if (numeric !== null) {
    if (numeric < -(2n ** 31n) || numeric >= 2n ** 31n) invalid(`method id out of range: ${text}`);
    return Number(numeric);
  }
  return (crc16(Buffer.from(text, 'utf8')) & 0xffff) | 0x10000;
}

/** Hashes of the library cells reachable from `roots`. */
export function libraryReferences(roots: readonly (Cell | null)[]): Buffer[] {
  const seen = new Set<string>();
  const found = new Map<string, Buffer>();
  const pending = roots.filter((root): root is Cell => root !== null);
  while (pending.length > 0 && seen.size < LIBRARY_SCAN_LIMIT) {
    const cell = pending.pop() as Cell;
    const key = cell.hash().toString('hex');
    if (seen.has(key)) continue;
    seen.add(key);
    if (cell.type === CellType.Library) {
      const hash = cell.bits.subbuffer(8, 256);
      if (hash) found.set(hash.toString('hex'), hash);
      continue;
    }
    pending.push(...cell.refs);
  }
  return [...found.values()];
}

export type LibraryDict = Dictionary<Buffer, Cell>;

async function fetchLibraries(client: LiteClient, hashes: Buffer[], into: LibraryDict): Promise<void> {
  const wanted = hashes.filter((hash) => !into.has(hash));
  for (let i = 0; i < wanted.length; i += LIBRARIES_PER_QUERY) {
    const answer = await client.getLibraries(wanted.slice(i, i + LIBRARIES_PER_QUERY));
    for (const entry of answer.result) into.set(entry.hash, Cell.fromBoc(entry.data)[0]);
  }
}

/** The libraries as the emulator takes them (a `HashmapE 256 ^Cell` root), or undefined when none. */
export function libraryCell(libraries: LibraryDict): Cell | undefined {
  return libraries.size > 0 ? beginCell().storeDictDirect(libraries).endCell() : undefined;
}

/** What the emulator needs besides the account: the block's config and the libraries found so far. */
export interface EmulationContext {
  config: ChainConfig;
  executor: Executor;
  libraries: LibraryDict;
}

/** Config, emulator and the libraries referenced by `roots`, for `read`'s block. */
export async function emulationContext(client: LiteClient, read: AccountRead, roots: readonly (Cell | null)[]): Promise<EmulationContext> {
  const [config, vm] = await Promise.all([configAt(client, read.block), sharedExecutor()]);
  const libraries: LibraryDict = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  await fetchLibraries(client, libraryReferences(roots), libraries);
  return { config, executor: vm, libraries };
}

/** Loads an account at masterchain `seqno` (head when undefined) for running get-methods on it. */
export async function loadContract(client: LiteClient, address: Address, seqno?: number): Promise<LoadedContract> {
  const read = await readAccount(client, address, seqno);
  return contractOf(client, read);
}

/** Get-methods on an account state already read (getTokenData loads several at one block). */
export async function contractOf(client: LiteClient, read: AccountRead): Promise<LoadedContract> {
  const state = read.account?.storage.state;
  const code = state?.type === 'active' ? (state.state.code ?? null) : null;
  const data = state?.type === 'active' ? (state.state.data ?? null) : null;
  if (!code || !read.account) {
    return { read, run: async () => ({ exitCode: NO_CODE_EXIT_CODE, gasUsed: 0, stack: [] }) };
  }
  const account = read.account;
  const { config, executor: vm, libraries } = await emulationContext(client, read, [code, data]);
  const extraCurrency: Record<number, bigint> = {};
  for (const [id, amount] of account.storage.balance.other ?? []) extraCurrency[id] = amount;

  return {
    read,
    run: async (method, stack) => {
      const methodId = methodIdOf(method);
      for (let round = 0; ; round++) {
        const result = await vm.runGetMethod({
          code,
          data: data ?? Cell.EMPTY,
          methodId,
          stack,
          config: config.base64,
          verbosity: 'short',
          libs: libraryCell(libraries),
          address: read.address,
          unixTime: read.syncUtime,
          balance: account.storage.balance.coins,
          randomSeed: Buffer.alloc(32),
          gasLimit: GET_METHOD_GAS_LIMIT,
          debugEnabled: false,
          extraCurrency,
        });
        const output = result.output;
        if (!output.success) throw new ApiError(500, `cannot run get-method: ${output.error}`);
        if (output.missing_library && round < MAX_LIBRARY_ROUNDS) {
          const before = libraries.size;
          await fetchLibraries(client, [Buffer.from(output.missing_library, 'hex')], libraries);
          // A library no lite server has stays missing; report the run as it ended.
          if (libraries.size > before) continue;
        }
        return { exitCode: output.vm_exit_code, gasUsed: Number(output.gas_used), stack: parseTuple(Cell.fromBase64(output.stack)) };
      }
    },
  };
}
