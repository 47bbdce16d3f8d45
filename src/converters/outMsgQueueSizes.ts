import { BlockIdExtInput, toBlockIdExt, TonBlockIdExtJson } from './blockId';

/** getOutMsgQueueSize: `blocks.outMsgQueueSizes` (masterchain block first, then every shard top). */

export interface OutMsgQueueSizeJson {
  '@type': 'blocks.outMsgQueueSize';
  id: TonBlockIdExtJson;
  size: number;
}

export interface OutMsgQueueSizesJson {
  '@type': 'blocks.outMsgQueueSizes';
  shards: OutMsgQueueSizeJson[];
  ext_msg_queue_size_limit: number;
}

export interface OutMsgQueueSizesInput {
  shards: { id: BlockIdExtInput; size: number }[];
  extMsgQueueSizeLimit: number;
}

export function toOutMsgQueueSizes(input: OutMsgQueueSizesInput): OutMsgQueueSizesJson {
  return {
    '@type': 'blocks.outMsgQueueSizes',
    shards: input.shards.map((shard) => ({ '@type': 'blocks.outMsgQueueSize', id: toBlockIdExt(shard.id), size: shard.size })),
    ext_msg_queue_size_limit: input.extMsgQueueSizeLimit,
  };
}
