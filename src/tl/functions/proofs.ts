/** Proof functions: the link chain between two masterchain blocks, and a shard block's link to the masterchain. */
import { constructor, nat, optional } from '../codec';
import { BlockIdExt, PartialBlockProof, ShardBlockProof, blockIdExtCodec, partialBlockProofCodec, shardBlockProofCodec } from '../objects';
import type { LiteFunctionTable } from './liteFunction';

const blockIdExt = blockIdExtCodec.bare;

export interface GetBlockProof {
  readonly kind: 'liteServer.getBlockProof';
  readonly mode: number;
  readonly knownBlock: BlockIdExt;
  readonly targetBlock: BlockIdExt | null;
}
export interface GetShardBlockProof {
  readonly kind: 'liteServer.getShardBlockProof';
  readonly id: BlockIdExt;
}

export type ProofQuery = GetBlockProof | GetShardBlockProof;

/** The answer type of each function of the family (its boxed result type in lite_api.tl). */
export interface ProofAnswers {
  'liteServer.getBlockProof': PartialBlockProof;
  'liteServer.getShardBlockProof': ShardBlockProof;
}

export const PROOF_FUNCTIONS: LiteFunctionTable<ProofQuery, ProofAnswers> = {
  'liteServer.getBlockProof': {
    request: constructor<GetBlockProof>('liteServer.getBlockProof', {
      mode: nat,
      knownBlock: blockIdExt,
      targetBlock: optional('mode', 0, blockIdExt),
    }),
    answer: partialBlockProofCodec,
  },
  'liteServer.getShardBlockProof': {
    request: constructor<GetShardBlockProof>('liteServer.getShardBlockProof', { id: blockIdExt }),
    answer: shardBlockProofCodec,
  },
};
