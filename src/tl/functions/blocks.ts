/** Block functions: data, state and header of a block, and lookups by seqno, lt or utime. */
import { constructor, int32, int64, nat, optional } from '../codec';
import {
  BlockData,
  BlockHeader,
  BlockId,
  BlockIdExt,
  BlockState,
  LookupBlockResult,
  blockDataCodec,
  blockHeaderCodec,
  blockIdCodec,
  blockIdExtCodec,
  blockStateCodec,
  lookupBlockResultCodec,
} from '../objects';
import type { LiteFunctionTable } from './liteFunction';

const blockIdExt = blockIdExtCodec.bare;
const blockId = blockIdCodec.bare;

const lookupFields = {
  mode: nat,
  id: blockId,
  lt: optional('mode', 1, int64),
  utime: optional('mode', 2, int32),
};

export interface GetBlock {
  readonly kind: 'liteServer.getBlock';
  readonly id: BlockIdExt;
}
export interface GetState {
  readonly kind: 'liteServer.getState';
  readonly id: BlockIdExt;
}
export interface GetBlockHeader {
  readonly kind: 'liteServer.getBlockHeader';
  readonly id: BlockIdExt;
  readonly mode: number;
}
/** mode bits: 0 by seqno, 1 by lt, 2 by utime. */
export interface LookupBlock {
  readonly kind: 'liteServer.lookupBlock';
  readonly mode: number;
  readonly id: BlockId;
  readonly lt: string | null;
  readonly utime: number | null;
}
export interface LookupBlockWithProof {
  readonly kind: 'liteServer.lookupBlockWithProof';
  readonly mode: number;
  readonly id: BlockId;
  readonly mcBlockId: BlockIdExt;
  readonly lt: string | null;
  readonly utime: number | null;
}

export type BlockQuery = GetBlock | GetState | GetBlockHeader | LookupBlock | LookupBlockWithProof;

/** The answer type of each function of the family (its boxed result type in lite_api.tl). */
export interface BlockAnswers {
  'liteServer.getBlock': BlockData;
  'liteServer.getState': BlockState;
  'liteServer.getBlockHeader': BlockHeader;
  'liteServer.lookupBlock': BlockHeader;
  'liteServer.lookupBlockWithProof': LookupBlockResult;
}

export const BLOCK_FUNCTIONS: LiteFunctionTable<BlockQuery, BlockAnswers> = {
  'liteServer.getBlock': {
    request: constructor<GetBlock>('liteServer.getBlock', { id: blockIdExt }),
    answer: blockDataCodec,
  },
  'liteServer.getState': {
    request: constructor<GetState>('liteServer.getState', { id: blockIdExt }),
    answer: blockStateCodec,
  },
  'liteServer.getBlockHeader': {
    request: constructor<GetBlockHeader>('liteServer.getBlockHeader', { id: blockIdExt, mode: nat }),
    answer: blockHeaderCodec,
  },
  'liteServer.lookupBlock': {
    request: constructor<LookupBlock>('liteServer.lookupBlock', lookupFields),
    answer: blockHeaderCodec,
  },
  'liteServer.lookupBlockWithProof': {
    request: constructor<LookupBlockWithProof>('liteServer.lookupBlockWithProof', {
      mode: nat,
      id: blockId,
      mcBlockId: blockIdExt,
      lt: optional('mode', 1, int64),
      utime: optional('mode', 2, int32),
    }),
    answer: lookupBlockResultCodec,
  },
};
