import type { TupleItem } from '@ton/core';
import type { GetMethodOutcome, LoadedContract } from '../chain';
import { ApiError } from '../errors';

/** Errors that say the chain or the pool could not answer now (retry the block), not that the contract failed. */
const TRANSIENT_KINDS = new Set(['timeout', 'unavailable', 'liteServer', 'invalidAnswer', 'proof']);

/** The stack of a get-method that succeeded with exactly `entries` results, else undefined. */
export function okStack(outcome: GetMethodOutcome, entries: number): TupleItem[] | undefined {
  return outcome.exitCode === 0 && outcome.stack.length === entries ? outcome.stack : undefined;
}

/** A get-method run whose deterministic failures (bad stack, a worker that gave up) read as a failed method. */
export async function runQuiet(contract: LoadedContract, method: string, stack: TupleItem[]): Promise<GetMethodOutcome> {
  try {
    return await contract.run(method, stack);
  } catch (err) {
    if (err instanceof ApiError && !TRANSIENT_KINDS.has(err.kind)) return { exitCode: -1, gasUsed: 0, stack: [] };
    throw err;
  }
}
