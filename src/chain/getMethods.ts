import { Address, beginCell, Cell, Dictionary, TupleItem } from '@ton/core';
import { decodeBocFast } from '../cells';
import { parseTvmInteger, type LegacyStackEntryJson, type TvmStackEntryJson } from '../converters';
import { invalid } from '../errors';
import { crc16, MAX_STACK_CELL_DEPTH } from '../params';
import { type GetMethodAnswer, parseStackCell, serializeStackCell, type StackRendering, tvmPool, libraryReferences } from '../tvm';
import { type AccountRead, accountAt } from './accounts';
import { type ChainConfig, chainConfigAt } from './config';
import { librariesByHash } from './libraries';
import type { ChainSession, McBlock } from '../proofs';

/**
 * Get-methods run the way toncenter runs them: locally, in the TVM (tonlib there, the sandbox
 * emulator here), on the account state downloaded from the lite server at the requested block,
 * with that block's config and the public libraries the code needs. Running locally rather than
 * through liteServer.runSmcMethod is what yields `gas_used`, and it works for historical states
 * and library cells on any lite server. The TVM itself runs in a worker thread (src/tvm); this
 * file gathers its inputs (the account through accountAt, the config through chainConfigAt, the
 * libraries through librariesByHash, all at one masterchain block) and reads its answer.
 */

/** TVM exit code of a contract without code (tonlib reports it for uninitialised accounts). */
export const NO_CODE_EXIT_CODE = -13;
/** Lite servers answer at most this many libraries per getLibraries query. */
const LIBRARIES_PER_QUERY = 16;
/** Libraries found missing during execution are fetched and the method re-run at most this often. */
const MAX_LIBRARY_ROUNDS = 4;
/** Entries of a result stack (every level) we turn into JSON; more is a 422. */
export const MAX_RESULT_ENTRIES = 4096;

export interface GetMethodOutcome {
  exitCode: number;
  gasUsed: number;
  /** Bottom of the stack first. */
  stack: TupleItem[];
}

/** A run whose result stack the worker already turned into toncenter JSON. */
export interface RenderedOutcome<J> {
  exitCode: number;
  gasUsed: number;
  stack: J[];
}

export interface LoadedContract {
  /** The state the methods run on (`block_id`, `last_transaction_id`). */
  read: AccountRead;
  /** Runs a method in a TVM worker; `stack` as items or as a cell from `tvmStack`. */
  run(method: string | number, stack: TupleItem[] | Cell): Promise<GetMethodOutcome>;
  /** Runs a method and has the worker render the result (runGetMethod's legacy or Std's typed form). */
  runRendered(method: string | number, stack: Cell, form: 'legacy'): Promise<RenderedOutcome<LegacyStackEntryJson>>;
  runRendered(method: string | number, stack: Cell, form: 'typed'): Promise<RenderedOutcome<TvmStackEntryJson>>;
}

/**
 * A client's input stack as the TVM takes it, checked against the bounds the emulator survives
 * (422 naming the bound). Handlers call it before any lite-server work.
 */
export function tvmStack(items: readonly TupleItem[]): Cell {
  const cell = serializeStackCell(items);
  if (cell.depth() > MAX_STACK_CELL_DEPTH) {
    invalid(
      `stack is ${cell.depth()} cells deep as the TVM receives it (entries + nesting + cell depth), at most ${MAX_STACK_CELL_DEPTH} are accepted`,
    );
  }
  return cell;
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


export type LibraryDict = Dictionary<Buffer, Cell>;

async function fetchLibraries(session: ChainSession, hashes: Buffer[], into: LibraryDict): Promise<void> {
  const wanted = hashes.filter((hash) => !into.has(hash));
  for (let i = 0; i < wanted.length; i += LIBRARIES_PER_QUERY) {
    const entries = await librariesByHash(session, wanted.slice(i, i + LIBRARIES_PER_QUERY));
    for (const entry of entries) into.set(entry.hash, Cell.fromBoc(entry.data)[0]);
  }
}

/** The libraries as the emulator takes them (a `HashmapE 256 ^Cell` root), or undefined when none. */
export function libraryCell(libraries: LibraryDict): Cell | undefined {
  return libraries.size > 0 ? beginCell().storeDictDirect(libraries).endCell() : undefined;
}

/** What the emulator needs besides the account: the block's config and the libraries found so far. */
export interface EmulationContext {
  config: ChainConfig;
  libraries: LibraryDict;
}

/** Config and the libraries referenced by `roots`, for `read`'s block. */
export async function emulationContext(
  session: ChainSession,
  read: AccountRead,
  roots: readonly (Cell | null)[],
  moreLibraries: readonly Buffer[] = [],
  /** The config of `read.block` when the caller has it already (proven equal to that block's): not read again. */
  given?: ChainConfig,
): Promise<EmulationContext> {
  const config = given ?? (await chainConfigAt(session, read.block));
  const libraries: LibraryDict = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  await fetchLibraries(session, [...libraryReferences(roots), ...moreLibraries], libraries);
  return { config, libraries };
}

/** The libraries as BoC bytes for a worker, or undefined when none. */
export function libraryBoc(libraries: LibraryDict): Uint8Array | undefined {
  return libraryCell(libraries)?.toBoc();
}

/** Loads the account at masterchain block `block` for running get-methods on it. */
export async function contractAt(session: ChainSession, block: McBlock, address: Address, deadline: number, knownConfig?: ChainConfig): Promise<LoadedContract> {
  return contractOf(session, await accountAt(session, block, address), deadline, undefined, knownConfig);
}

/** Get-methods on an account state already read. */
export async function contractOf(
  session: ChainSession,
  read: AccountRead,
  /** The request's deadline (ctx.deadline): every get-method run on the contract stops there. */
  deadline: number,
  /** The code and data BoCs when the caller has them already (the index keeps them): not serialized again. */
  bocs?: { readonly code: Buffer; readonly data: Buffer | null },
  /**
   * The config of `read.block` when the caller holds it, proven to be that block's (the index
   * compares the config's hash with the one the verified block's state update names): no
   * getConfigAll for it.
   */
  knownConfig?: ChainConfig,
): Promise<LoadedContract> {
  const state = read.account?.storage.state;
  const code = state?.type === 'active' ? (state.state.code ?? null) : null;
  const data = state?.type === 'active' ? (state.state.data ?? null) : null;
  if (!code || !read.account) {
    const none = async () => ({ exitCode: NO_CODE_EXIT_CODE, gasUsed: 0, stack: [] });
    return { read, run: none, runRendered: none };
  }
  const account = read.account;
  const { config, libraries } = await emulationContext(session, read, [code, data], [], knownConfig);
  tvmPool().admitGlobalVersion(config.globalVersion);
  const extraCurrency: Record<string, string> = {};
  for (const [id, amount] of account.storage.balance.other ?? []) extraCurrency[String(id)] = amount.toString();
  const codeBoc = bocs?.code ?? code.toBoc();
  const dataBoc = (data ? bocs?.data : null) ?? (data ?? Cell.EMPTY).toBoc();

  const execute = async (method: string | number, stack: TupleItem[] | Cell, render?: StackRendering): Promise<GetMethodAnswer> => {
    const methodId = methodIdOf(method);
    const stackBoc = (stack instanceof Cell ? stack : tvmStack(stack)).toBoc();
    for (let round = 0; ; round++) {
      const libs = libraryBoc(libraries);
      const answer = await tvmPool().getMethod(
        {
          code: codeBoc,
          data: dataBoc,
          ...(libs ? { libs } : {}),
          methodId,
          stack: stackBoc,
          config: config.base64,
          address: read.address.toRawString(),
          unixTime: read.syncUtime,
          balance: account.storage.balance.coins.toString(),
          extraCurrency,
          ...(render ? { render } : {}),
          maxResultEntries: MAX_RESULT_ENTRIES,
        },
        deadline,
      );
      if (answer.missingLibrary && round < MAX_LIBRARY_ROUNDS) {
        const before = libraries.size;
        await fetchLibraries(session, [Buffer.from(answer.missingLibrary, 'hex')], libraries);
        // A library no lite server has stays missing; report the run as it ended.
        if (libraries.size > before) continue;
      }
      return answer;
    }
  };

  return {
    read,
    run: async (method, stack) => {
      const answer = await execute(method, stack);
      // The byte-level decoder: the index's token detection reads every run's answer here.
      const [root] = decodeBocFast(Buffer.from(answer.stack));
      return { exitCode: answer.exitCode, gasUsed: answer.gasUsed, stack: parseStackCell(root!, { maxEntries: MAX_RESULT_ENTRIES }) };
    },
    runRendered: (async (method: string | number, stack: Cell, form: StackRendering) => {
      const answer = await execute(method, stack, form);
      return { exitCode: answer.exitCode, gasUsed: answer.gasUsed, stack: answer.rendered ?? [] };
    }) as LoadedContract['runRendered'],
  };
}

/** runGetMethod(Std)'s answer: the run rendered in the worker and the state it ran on. */
export interface RenderedRun<J> {
  read: AccountRead;
  outcome: RenderedOutcome<J>;
}

/**
 * runGetMethod at `block`: the method on the account's state there, its result stack rendered in
 * the TVM worker as runGetMethod's legacy form or runGetMethodStd's typed form.
 */
export async function runGetMethodAt(
  session: ChainSession,
  block: McBlock,
  args: { address: Address; method: string | number; stack: Cell; form: 'legacy'; deadline: number },
): Promise<RenderedRun<LegacyStackEntryJson>>;
export async function runGetMethodAt(
  session: ChainSession,
  block: McBlock,
  args: { address: Address; method: string | number; stack: Cell; form: 'typed'; deadline: number },
): Promise<RenderedRun<TvmStackEntryJson>>;
export async function runGetMethodAt(
  session: ChainSession,
  block: McBlock,
  args: { address: Address; method: string | number; stack: Cell; form: StackRendering; deadline: number },
): Promise<RenderedRun<LegacyStackEntryJson | TvmStackEntryJson>> {
  const contract = await contractAt(session, block, args.address, args.deadline);
  const outcome =
    args.form === 'legacy'
      ? await contract.runRendered(args.method, args.stack, 'legacy')
      : await contract.runRendered(args.method, args.stack, 'typed');
  return { read: contract.read, outcome };
}
