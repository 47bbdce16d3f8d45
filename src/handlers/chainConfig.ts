import { Cell, Dictionary } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import type { BlockID } from 'ton-lite-client/dist/types';
import { InternalError } from '../errors';
import { configDictionary } from './configProof';
import { liteQuery, tlBlockId } from './liteAnswers';

/**
 * The blockchain config as of a masterchain block, for running get-methods and emulating
 * transactions locally (what tonlib does for runGetMethod and estimateFee), read and checked from
 * the getConfigAll proofs by configProof.ts.
 */
export interface ChainConfig {
  /** The `Hashmap 32 ^Cell` root (the 10th element of c7, what the emulator takes). */
  root: Cell;
  /** BoC of `root` in base64, the emulator's input form. */
  base64: string;
  params: Dictionary<number, Cell>;
}

// Keyed by the masterchain block's root hash: a block's config never changes, so entries are
// valid forever (unlike seqno-keyed caches, a reset chain cannot serve stale data).
const cache = new Map<string, Promise<ChainConfig>>();
const CACHE_SIZE = 16;

async function fetchConfig(client: LiteClient, block: BlockID): Promise<ChainConfig> {
  const answer = await liteQuery(client, { kind: 'liteServer.getConfigAll', mode: 0, id: tlBlockId(block) });
  const root = configDictionary(answer, block);
  return {
    root,
    base64: root.toBoc().toString('base64'),
    params: Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), root),
  };
}

/** The config at masterchain block `block`. */
export function configAt(client: LiteClient, block: BlockID): Promise<ChainConfig> {
  const key = block.rootHash.toString('hex');
  const cached = cache.get(key);
  if (cached) return cached;
  const loading = fetchConfig(client, block);
  cache.set(key, loading);
  loading.catch(() => cache.delete(key));
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return loading;
}

/** One parameter's cell, or an error naming it (estimateFee cannot work without its prices). */
export function configParam(config: ChainConfig, id: number): Cell {
  const cell = config.params.get(id);
  if (!cell) throw new InternalError(`config parameter ${id} is missing`);
  return cell;
}
