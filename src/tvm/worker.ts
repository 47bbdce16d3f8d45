import { threadId } from 'node:worker_threads';
import { Address, Cell } from '@ton/core';
// The emulator module alone: @ton/sandbox's index also loads the Blockchain, its UI and their
// dependencies (~13 MB per thread that a worker never uses).
import type { Executor } from '@ton/sandbox/dist/executor/Executor';
import { libraryReferences } from './libraryRefs';
import { parseExternalMessage, queryMessage } from './externalMessages';
import { cellStats, useNativeCellHashing } from '../cells';
import { renderLegacyStack, renderTypedStack, toExtMessageInfo } from '../converters';
import { ApiError, ValidationError } from '../errors';
import { createEmulator } from './emulator';
import { parseStackCell } from './stackCell';
import type { ExternalMessageTask, GetMethodAnswer, GetMethodTask, QueryMessageTask, TransactionTask, TvmAnswer, TvmTask } from './messages';

/**
 * The body of a TVM worker thread (loaded through workerEntry.js). It keeps one emulator (a wasm
 * instance, slow to create) for all the tasks it runs. When the emulator traps or throws, that
 * instance is dropped, so whatever state the trap left in its memory can never reach the next
 * task: the next task gets a fresh instance. A task that runs past its deadline is aborted by
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

function bytesOf(base64: string): Uint8Array {
  return new Uint8Array(Buffer.from(base64, 'base64'));
}

async function runGetMethod(vm: Executor, task: GetMethodTask): Promise<TvmAnswer> {
  const extraCurrency: Record<number, bigint> = {};
  for (const [id, amount] of Object.entries(task.extraCurrency)) extraCurrency[Number(id)] = BigInt(amount);
  const result = await vm.runGetMethod({
    code: fromBoc(task.code),
    data: fromBoc(task.data),
    methodId: task.methodId,
    stack: parseStackCell(fromBoc(task.stack)),
    config: task.config,
    verbosity: 'short',
    libs: task.libs ? fromBoc(task.libs) : undefined,
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

async function runTransaction(vm: Executor, task: TransactionTask): Promise<TvmAnswer> {
  const emulation = await vm.runTransaction({
    message: fromBoc(task.message),
    shardAccount: Buffer.from(task.shardAccount).toString('base64'),
    config: task.config,
    libs: task.libs ? fromBoc(task.libs) : null,
    verbosity: 'short',
    now: task.now,
    lt: BigInt(task.lt),
    randomSeed: null,
    ignoreChksig: task.ignoreChksig,
    debugEnabled: false,
  });
  const result = emulation.result;
  if (!result.success) return { kind: 'transaction' };
  return {
    kind: 'transaction',
    transaction: bytesOf(result.transaction),
    ...(result.actions ? { actions: bytesOf(result.actions) } : {}),
  };
}

function buffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function checkExternalMessage(task: ExternalMessageTask): TvmAnswer {
  const info = toExtMessageInfo(parseExternalMessage(buffer(task.boc)));
  return { kind: 'externalMessage', hash: info.hash, hashNorm: info.hash_norm };
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
function runMessageTask(task: ExternalMessageTask | QueryMessageTask): TvmAnswer {
  try {
    return task.kind === 'externalMessage' ? checkExternalMessage(task) : buildQueryMessage(task);
  } catch (err) {
    const error = err instanceof ApiError ? err : new ValidationError(`failed to validate request: ${err instanceof Error ? err.message : String(err)}`);
    return { kind: 'rejected', code: error.code, error: error.message };
  }
}

export default async function runTvmTask(task: TvmTask): Promise<TvmAnswer> {
  if (task.kind === 'externalMessage' || task.kind === 'queryMessage') return runMessageTask(task);
  emulator ??= createEmulator();
  const vm = await emulator;
  try {
    if (task.kind === 'warm') return { kind: 'warm', threadId };
    return task.kind === 'getMethod' ? await runGetMethod(vm, task) : await runTransaction(vm, task);
  } catch (err) {
    // Over a bound while reading the result: the caller's error, the emulator is fine.
    if (err instanceof ApiError) return { kind: 'rejected', code: err.code, error: err.message };
    // A wasm trap (`memory access out of bounds`...) or an emulator failure: never reuse it.
    emulator = undefined;
    return { kind: 'trapped', error: err instanceof Error ? err.message : String(err) };
  }
}
