import { BlockIdExtInput, toBlockIdExt, TonBlockIdExtJson } from './blockId';

/** getShards / shards: the shardchain tops referenced by a masterchain block. */
export interface BlockShardsJson {
  '@type': 'blocks.shards';
  shards: TonBlockIdExtJson[];
}

export function toBlockShards(shards: BlockIdExtInput[]): BlockShardsJson {
  return { '@type': 'blocks.shards', shards: shards.map(toBlockIdExt) };
}
