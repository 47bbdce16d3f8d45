import { threadId } from 'node:worker_threads';
import { Address, Cell, Dictionary, loadAccount } from '@ton/core';
// The emulator module alone: @ton/sandbox's index also loads the Blockchain, its UI and their
// dependencies (~13 MB per thread that a worker never uses).
import type { Executor } from '@ton/sandbox/dist/executor/Executor';
import { libraryReferences } from './libraryRefs';
import { parseExternalMessage, queryMessage } from './externalMessages';
import { tonConnectExternalMessage } from './walletMessages';
// A thread's entry is the root of its own program: it loads the few modules its tasks need, not
// whole folders through their indexes (each thread compiles and holds what it loads).
import { cellStats } from '../cells/cellStats';
import { useNativeCellHashing } from '../cells/nativeHashing';
import { toExtMessageInfo } from '../converters/extMessage';
import { parseMessageCell } from '../converters/message';
import { renderLegacyStack, renderTypedStack } from '../converters/stack';
import { toV3Transaction } from '../converters/v3Transaction';
import { ApiError, ValidationError } from '../errors';
import { createEmulator, emulatorMemoryBytes } from './emulator';
import { parseStackCell } from './stackCell';
import { configTextOf } from './sharedConfig';
import { fullCollection } from './fullCollection';
import type {
  DeadlinedTask,
  ExternalMessageTask,
  GetMethodAnswer,
  GetMethodTask,
  MessageRun,
  QueryMessageTask,
  TonConnectMessageTask,
  TracedOutMessage,
  TraceStepTask,
  TransactionTask,
  TvmAnswer,
  TvmTask,
} from './messages';

/**
 * The body of a TVM worker thread (loaded through workerEntry.js). It keeps one emulator (a wasm
 * instance, slow to create) for all the tasks it runs. When the emulator traps or throws, that
 * instance is dropped, so whatever state the trap left in its memory can never reach the next
 * task: the next task gets a fresh instance, as does the task after one that left the instance's
 * memory large. A task taken after its deadline is skipped; one that runs past it is aborted by
 * the pool, which terminates this whole thread.
 */

// Message tasks decode and build BoCs, and get-method answers are parsed here: cell hashing is
// most of that work (src/converters/cellHashing.ts).
useNativeCellHashing();

// Created when the thread starts, so the first task does not pay for the wasm instantiation.
let emulator: Promise<Executor> | undefined = createEmulator();

function fromBoc(bytes: Uint8Array): Cell {
  return Cell.fromBoc(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))[0]!;
}

/**
 * A BoC handed to the emulator as it came. @ton/sandbox 0.41's runGetMethod only calls `toBoc()`
 * on its code, data and libs, to pass them to the wasm as base64; decoding them into Cells here
 * for it to serialize them again cost each TVM thread ~0.6 s of its ~3 s in the jetton ingest
 * (--cpu-prof, 27 November: @ton/core's deserializeBoc with its CRC-32C, then serializeBoc).
 * The bytes are this pool's own (the chain layer serialized them from cells: one root each).
 */
function bocAsIs(bytes: Uint8Array): Cell {
  const boc = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const asIs: Pick<Cell, 'toBoc'> = { toBoc: () => boc };
  return asIs as Cell;
}

function bytesOf(base64: string): Uint8Array {
  return new Uint8Array(Buffer.from(base64, 'base64'));
}

async function runGetMethod(vm: Executor, task: GetMethodTask): Promise<TvmAnswer> {
  const extraCurrency: Record<number, bigint> = {};
  for (const [id, amount] of Object.entries(task.extraCurrency)) extraCurrency[Number(id)] = BigInt(amount);
  const result = await vm.runGetMethod({
    code: bocAsIs(task.code),
    data: bocAsIs(task.data),
    methodId: task.methodId,
    stack: parseStackCell(fromBoc(task.stack)),
    config: configTextOf(task.config),
    verbosity: 'short',
    libs: task.libs ? bocAsIs(task.libs) : undefined,
    address: Address.parseRaw(task.address),
    unixTime: task.unixTime,
    balance: BigInt(task.balance),
    randomSeed: Buffer.alloc(32),
    gasLimit: BigInt(task.gasLimit),
    debugEnabled: false,
    extraCurrency,
  });
  const output = result.output;
  if (!output.success) return { kind: 'refused', error: output.error };
  const stack = bytesOf(output.stack);
  let rendered: GetMethodAnswer['rendered'];
  if (task.render && !output.missing_library) {
    // Parsing and rendering cost time in proportion to what the contract returned: done here.
    const items = parseStackCell(fromBoc(stack), { maxEntries: task.maxResultEntries });
    rendered = task.render === 'legacy' ? renderLegacyStack(items) : renderTypedStack(items);
  }
  return {
    kind: 'getMethod',
    exitCode: output.vm_exit_code,
    gasUsed: Number(output.gas_used),
    stack,
    ...(output.missing_library ? { missingLibrary: output.missing_library } : {}),
    ...(rendered ? { rendered } : {}),
  };
}

function emulateMessage(vm: Executor, run: MessageRun): ReturnType<Executor['runTransaction']> {
  return vm.runTransaction({
    message: fromBoc(run.message),
    shardAccount: Buffer.from(run.shardAccount).toString('base64'),
    config: configTextOf(run.config),
    libs: run.libs ? fromBoc(run.libs) : null,
    verbosity: 'short',
    now: run.now,
    lt: BigInt(run.lt),
    randomSeed: run.randSeed ? Buffer.from(run.randSeed, 'hex') : null,
    ignoreChksig: run.ignoreChksig,
    debugEnabled: false,
  });
}

async function runTransaction(vm: Executor, task: TransactionTask): Promise<TvmAnswer> {
  const emulation = await emulateMessage(vm, task);
  const result = emulation.result;
  if (!result.success) return { kind: 'transaction' };
  return {
    kind: 'transaction',
    transaction: bytesOf(result.transaction),
    ...(result.actions ? { actions: bytesOf(result.actions) } : {}),
  };
}

/** The Account cell a ShardAccount cell references. */
function accountOf(shardAccount: Cell): Cell {
  return shardAccount.refs[0]!;
}

function cellBoc(cell: Cell | null | undefined): { hash: string; boc: string } | undefined {
  return cell ? { hash: cell.hash().toString('base64'), boc: cell.toBoc().toString('base64') } : undefined;
}

/** Code and data of an Account cell, when it is active. */
function codeAndData(account: Cell): { code: Cell | null; data: Cell | null } {
  const slice = account.beginParse();
  if (!slice.loadBit()) return { code: null, data: null };
  const state = loadAccount(slice).storage.state;
  return state?.type === 'active' ? { code: state.state.code ?? null, data: state.state.data ?? null } : { code: null, data: null };
}

async function runTraceStep(vm: Executor, task: TraceStepTask): Promise<TvmAnswer> {
  const shardAccountBefore = fromBoc(task.shardAccount);
  const emulation = await emulateMessage(vm, task);
  const result = emulation.result;
  if (!result.success) {
    return {
      kind: 'traceStep',
      accepted: false,
      error: result.error,
      ...(result.vmResults ? { exitCode: result.vmResults.vmExitCode } : {}),
    };
  }
  const transaction = bytesOf(result.transaction);
  const txCell = fromBoc(transaction);
  const shardAccountAfter = bytesOf(result.shardAccount);
  const accountAfter = accountOf(fromBoc(shardAccountAfter));
  const messages = txCell.refs[0]!.beginParse();
  messages.loadMaybeRef();
  const outCells = messages.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
  const outMessages: TracedOutMessage[] = [];
  const sent: Cell[] = [];
  for (const key of [...outCells.keys()].sort((a, b) => a - b)) {
    const cell = outCells.get(key) as Cell;
    const info = parseMessageCell(cell).info;
    // Outbound external messages (logs) go nowhere: they end the branch.
    if (info.type !== 'internal') continue;
    sent.push(cell);
    outMessages.push({
      boc: new Uint8Array(cell.toBoc()),
      hash: cell.hash().toString('base64'),
      destination: info.dest.toRawString(),
      createdLt: info.createdLt.toString(),
    });
  }
  const rendered = toV3Transaction(txCell, task.workchain, task.place, { before: accountOf(shardAccountBefore), after: accountAfter });
  const after = task.includeCodeData ? codeAndData(accountAfter) : { code: null, data: null };
  const code = cellBoc(after.code);
  const data = cellBoc(after.data);
  return {
    kind: 'traceStep',
    accepted: true,
    transaction,
    hash: txCell.hash().toString('base64'),
    shardAccount: shardAccountAfter,
    outMessages,
    libraries: libraryReferences(sent).map((hash) => hash.toString('hex')),
    rendered,
    ...(code ? { code } : {}),
    ...(data ? { data } : {}),
  };
}

function buffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function checkExternalMessage(task: ExternalMessageTask): TvmAnswer {
  const message = parseExternalMessage(buffer(task.boc));
  const info = toExtMessageInfo(message);
  const dest = parseMessageCell(message).info.dest;
  return {
    kind: 'externalMessage',
    hash: info.hash,
    hashNorm: info.hash_norm,
    destination: Address.isAddress(dest) ? dest.toRawString() : '',
  };
}

function buildQueryMessage(task: QueryMessageTask): TvmAnswer {
  const message = queryMessage(Address.parseRaw(task.address), buffer(task.body), buffer(task.initCode), buffer(task.initData));
  const below = cellStats(message.refs);
  return {
    kind: 'queryMessage',
    boc: new Uint8Array(message.toBoc()),
    refCells: below.cells.toString(),
    refBits: below.bits.toString(),
    libraries: libraryReferences([message]).map((hash) => hash.toString('hex')),
  };
}

/** Message tasks never touch the emulator: whatever fails in them is the client's BoC. */
function runMessageTask(task: ExternalMessageTask | QueryMessageTask | TonConnectMessageTask): TvmAnswer {
  try {
    if (task.kind === 'tonConnectMessage')
      return { kind: 'tonConnectMessage', boc: new Uint8Array(tonConnectExternalMessage(task.request)) };
    return task.kind === 'externalMessage' ? checkExternalMessage(task) : buildQueryMessage(task);
  } catch (err) {
    const error =
      err instanceof ApiError
        ? err
        : new ValidationError(`failed to validate request: ${err instanceof Error ? err.message : String(err)}`);
    return { kind: 'rejected', errorKind: error.kind, error: error.message };
  }
}

/**
 * Linear memory above which an emulator instance is dropped after its task (a new one is made
 * for the next): a wasm memory never shrinks, so one task that needed much would otherwise keep
 * it for the thread's life. The instance starts with 18 MB; a 1 000 000-gas run leaves it at
 * ~50 MB, a 4 000 000-gas get-method at ~260 MB (the emulator's VM log, see emulator.ts).
 */
const MAX_EMULATOR_MEMORY_BYTES = 64 * 1024 * 1024;

/**
 * V8's full collection. A dropped instance's memory is unmapped only when a full collection finds
 * it unreachable, and this thread's JavaScript heap stays small, so none may come for minutes
 * (measured: a dropped 260 MB instance still resident after 10 more tasks; unmapped within a
 * second of a collection).
 */
const collectGarbage = fullCollection();

/** Drops the thread's emulator; its memory is given back once the task has returned. */
function dropEmulator(): void {
  emulator = undefined;
  // After the task's frames (which still reference the instance) are gone.
  if (collectGarbage) setImmediate(collectGarbage);
}

export default async function runTvmTask(deadlined: DeadlinedTask): Promise<TvmAnswer> {
  // Taken from the queue after its caller stopped waiting: running it would only waste the thread.
  if (Date.now() >= deadlined.deadline && deadlined.kind !== 'warm') return { kind: 'expired' };
  const task: TvmTask = deadlined;
  if (task.kind === 'externalMessage' || task.kind === 'queryMessage' || task.kind === 'tonConnectMessage') return runMessageTask(task);
  emulator ??= createEmulator();
  const vm = await emulator;
  try {
    if (task.kind === 'warm') return { kind: 'warm', threadId };
    if (task.kind === 'traceStep') return await runTraceStep(vm, task);
    return task.kind === 'getMethod' ? await runGetMethod(vm, task) : await runTransaction(vm, task);
  } catch (err) {
    // Over a bound while reading the result: the caller's error, the emulator is fine.
    if (err instanceof ApiError) return { kind: 'rejected', errorKind: err.kind, error: err.message };
    // A wasm trap (`memory access out of bounds`...) or an emulator failure: never reuse it.
    dropEmulator();
    return { kind: 'trapped', error: err instanceof Error ? err.message : String(err) };
  } finally {
    // The instance that grew large is dropped; its memory goes with it at the next collection.
    if (emulatorMemoryBytes(vm) > MAX_EMULATOR_MEMORY_BYTES) dropEmulator();
  }
}
