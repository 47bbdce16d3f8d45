import { longToShard } from '../../ledger/ids';
import { LocalChain } from '../../ledger/LocalChain';
import { LiteHandler } from '../dispatcher';
import { EXT_MSG_QUEUE_SIZE_LIMIT, toTlBlockId } from './common';

/** Queues are always empty: a whole cascade is delivered within its round. */
export function getOutMsgQueueSizes(chain: LocalChain): LiteHandler<'liteServer.getOutMsgQueueSizes'> {
  return async (query) => {
    const mc = chain.lastMasterchainBlock();
    const blocks = [mc, ...chain.shardTopsOf(mc)];
    const filtered =
      query.mode & 1
        ? blocks.filter((b) => b.id.workchain === query.wc && intersects(b.id.shard, longToShard(query.shard ?? '0')))
        : blocks;
    return {
      kind: 'liteServer.outMsgQueueSizes',
      shards: filtered.map((b) => ({ kind: 'liteServer.outMsgQueueSize' as const, id: toTlBlockId(b.id), size: 0 })),
      extMsgQueueSizeLimit: EXT_MSG_QUEUE_SIZE_LIMIT,
    };
  };
}

function intersects(a: bigint, b: bigint): boolean {
  if (b === 0n) return false;
  const lowA = a & -a;
  const lowB = b & -b;
  const mask = ~((lowA > lowB ? lowA : lowB) * 2n - 1n) & 0xffffffffffffffffn;
  return (a & mask) === (b & mask);
}
