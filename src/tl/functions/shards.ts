/** Shard functions: shard descriptions and outbound message queue sizes. */
import { bool, constructor, int32, int64, nat, optional, trueFlag } from '../codec';
import {
  AllShardsInfo,
  BlockIdExt,
  BlockOutMsgQueueSize,
  OutMsgQueueSizes,
  ShardInfo,
  allShardsInfoCodec,
  blockIdExtCodec,
  blockOutMsgQueueSizeCodec,
  outMsgQueueSizesCodec,
  shardInfoCodec,
} from '../objects';
import type { LiteFunctionTable } from './liteFunction';

const blockIdExt = blockIdExtCodec.bare;

export interface GetShardInfo {
  readonly kind: 'liteServer.getShardInfo';
  readonly id: BlockIdExt;
  readonly workchain: number;
  readonly shard: string;
  readonly exact: boolean;
}
export interface GetAllShardsInfo {
  readonly kind: 'liteServer.getAllShardsInfo';
  readonly id: BlockIdExt;
}
/** mode bit 0: only the shard `wc:shard`. */
export interface GetOutMsgQueueSizes {
  readonly kind: 'liteServer.getOutMsgQueueSizes';
  readonly mode: number;
  readonly wc: number | null;
  readonly shard: string | null;
}
export interface GetBlockOutMsgQueueSize {
  readonly kind: 'liteServer.getBlockOutMsgQueueSize';
  readonly mode: number;
  readonly id: BlockIdExt;
  readonly wantProof: boolean | null;
}

export type ShardQuery = GetShardInfo | GetAllShardsInfo | GetOutMsgQueueSizes | GetBlockOutMsgQueueSize;

/** The answer type of each function of the family (its boxed result type in lite_api.tl). */
export interface ShardAnswers {
  'liteServer.getShardInfo': ShardInfo;
  'liteServer.getAllShardsInfo': AllShardsInfo;
  'liteServer.getOutMsgQueueSizes': OutMsgQueueSizes;
  'liteServer.getBlockOutMsgQueueSize': BlockOutMsgQueueSize;
}

export const SHARD_FUNCTIONS: LiteFunctionTable<ShardQuery, ShardAnswers> = {
  'liteServer.getShardInfo': {
    request: constructor<GetShardInfo>('liteServer.getShardInfo', {
      id: blockIdExt,
      workchain: int32,
      shard: int64,
      exact: bool,
    }),
    answer: shardInfoCodec,
  },
  'liteServer.getAllShardsInfo': {
    request: constructor<GetAllShardsInfo>('liteServer.getAllShardsInfo', { id: blockIdExt }),
    answer: allShardsInfoCodec,
  },
  'liteServer.getOutMsgQueueSizes': {
    request: constructor<GetOutMsgQueueSizes>('liteServer.getOutMsgQueueSizes', {
      mode: nat,
      wc: optional('mode', 0, int32),
      shard: optional('mode', 0, int64),
    }),
    answer: outMsgQueueSizesCodec,
  },
  'liteServer.getBlockOutMsgQueueSize': {
    request: constructor<GetBlockOutMsgQueueSize>('liteServer.getBlockOutMsgQueueSize', {
      mode: nat,
      id: blockIdExt,
      wantProof: trueFlag('mode', 0),
    }),
    answer: blockOutMsgQueueSizeCodec,
  },
};
