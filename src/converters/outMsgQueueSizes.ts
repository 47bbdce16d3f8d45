import { BlockIdExtInput, toBlockIdExt, TonBlockIdExtJson } from './blockId';

/**
 * getOutMsgQueueSize: `blocks.outMsgQueueSizes` (masterchain block first, then every shard top).
 * Each `id` is tagged `chain.blockIdExt`, as the service description we build from specifies for
 * this method; the C++ OpenAPI file tags it `ton.blockIdExt` (the fields are the same).
 */

export interface ChainBlockIdExtJson extends Omit<TonBlockIdExtJson, '@type'> {
  '@type': 'chain.blockIdExt';
}

export interface OutMsgQueueSizeJson {
  '@type': 'blocks.outMsgQueueSize';
  id: ChainBlockIdExtJson;
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
    shards: input.shards.map((shard) => ({
      '@type': 'blocks.outMsgQueueSize',
      id: { ...toBlockIdExt(shard.id), '@type': 'chain.blockIdExt' },
      size: shard.size,
    })),
    ext_msg_queue_size_limit: input.extMsgQueueSizeLimit,
  };
}
