import { LiteServerError } from '../../../errors';
import { serializeProofs } from '../../../cells';
import { BlockId, blockIdString, MASTERCHAIN, sameBlockId } from '../../ledger/ids';
import { LocalChain } from '../../ledger/LocalChain';
import { ancestorProof, blockHeaderProof, configStateProof, keyBlockConfigProof, stateRootProof } from '../../ledger/proofs';
import { StoredBlock } from '../../ledger/store';
import { BlockIdExt, BlockLink } from '../../../tl';
import { LiteHandler } from '../dispatcher';
import { fromTlBlockId, toTlBlockId } from './common';
import { LITE_ERROR } from '../../../constants';

/** Config parameters a forward link must reveal: the validator set and the catchain config. */
const VALIDATOR_PARAMS = [28, 34];
const MAX_LINKS = 16;

/** A masterchain block or the masterchain zerostate (seqno 0, a key block by definition). */
type McPoint = { id: BlockId; block: StoredBlock | null };

/**
 * A chain of links between masterchain blocks, built like TON's construct_proof_chain: backward
 * links prove ancestry through `prev_blocks` of the newer state; forward links go from a key block
 * (or the zerostate) and carry the local validator's signature of the destination block.
 */
export function getBlockProof(chain: LocalChain): LiteHandler<'liteServer.getBlockProof'> {
  return async (query) => {
    const from = point(chain, query.knownBlock, 'proof source');
    const to =
      query.mode & 1 && query.targetBlock
        ? point(chain, query.targetBlock, 'proof destination')
        : { id: chain.lastMasterchainBlock().id, block: chain.lastMasterchainBlock() };
    const steps: BlockLink[] = [];
    let cur = from;
    while (steps.length < MAX_LINKS && !sameBlockId(cur.id, to.id)) {
      if (cur.id.seqno === to.id.seqno) {
        throw new LiteServerError(
          LITE_ERROR.fatal,
          `cannot have two different masterchain blocks ${blockIdString(to.id)} and ${blockIdString(cur.id)} of the same height`,
        );
      }
      let next: McPoint;
      if (to.id.seqno < cur.id.seqno) {
        next = to;
      } else {
        const prevKey = prevKeyBlock(chain, cur);
        next = prevKey.id.seqno !== cur.id.seqno ? prevKey : (nextKeyBlock(chain, cur.id.seqno) ?? to);
      }
      steps.push(next.id.seqno < cur.id.seqno ? backLink(cur, next) : forwardLink(chain, cur, next));
      cur = next;
    }
    return {
      kind: 'liteServer.partialBlockProof',
      complete: sameBlockId(cur.id, to.id),
      from: toTlBlockId(from.id),
      to: toTlBlockId(cur.id),
      steps,
    };
  };
}

function point(chain: LocalChain, id: BlockIdExt, what: string): McPoint {
  const blockId = fromTlBlockId(id);
  if (id.workchain !== MASTERCHAIN) {
    throw new LiteServerError(LITE_ERROR.fatal, `${what} block ${blockIdString(blockId)} is not a valid masterchain block id`);
  }
  if (id.seqno === 0 && sameBlockId(chain.zeroState.id, blockId)) return { id: blockId, block: null };
  const block = chain.store.byId(blockId);
  if (!block) {
    throw new LiteServerError(
      LITE_ERROR.fatal,
      `${what} masterchain block ${blockIdString(blockId)} is unknown from the perspective of reference block ${blockIdString(chain.lastMasterchainBlock().id)}`,
    );
  }
  return { id: blockId, block };
}

function mcPoint(chain: LocalChain, seqno: number): McPoint {
  if (seqno === 0) return { id: chain.zeroState.id, block: null };
  const block = chain.store.bySeqno(MASTERCHAIN, seqno) as StoredBlock;
  return { id: block.id, block };
}

/** The latest key block at or before `p` (the zerostate counts as one). */
function prevKeyBlock(chain: LocalChain, p: McPoint): McPoint {
  if (!p.block || p.block.keyBlock) return p;
  return mcPoint(chain, p.block.prevKeyBlockSeqno);
}

/** The first key block after `after` known to the latest state (it may lie beyond the target). */
function nextKeyBlock(chain: LocalChain, after: number): McPoint | null {
  const last = chain.store.height(MASTERCHAIN);
  for (let s = after + 1; s <= last; s++) {
    const b = chain.store.bySeqno(MASTERCHAIN, s);
    if (b?.keyBlock) return { id: b.id, block: b };
  }
  return null;
}

function headerOf(p: McPoint): Buffer {
  return p.block ? serializeProofs([blockHeaderProof(p.block.root, 0)]) : Buffer.alloc(0);
}

function isKey(p: McPoint): boolean {
  return p.block ? p.block.keyBlock : true;
}

function backLink(cur: McPoint, next: McPoint): BlockLink {
  if (!cur.block) throw new LiteServerError(LITE_ERROR.fatal, 'cannot construct a backward proof link from the zerostate');
  return {
    kind: 'liteServer.blockLinkBack',
    toKeyBlock: isKey(next),
    from: toTlBlockId(cur.id),
    to: toTlBlockId(next.id),
    destProof: headerOf(next),
    proof: serializeProofs([stateRootProof(cur.block.root)]),
    stateProof: serializeProofs([ancestorProof(cur.block.state, next.id.seqno)]),
  };
}

function forwardLink(chain: LocalChain, cur: McPoint, next: McPoint): BlockLink {
  if (!next.block || !next.block.signature) throw new LiteServerError(LITE_ERROR.fatal, 'forward link destination has no signatures');
  const configProof = cur.block
    ? keyBlockConfigProof(cur.block.root, VALIDATOR_PARAMS)
    : configStateProof(chain.zeroState.state, VALIDATOR_PARAMS);
  return {
    kind: 'liteServer.blockLinkForward',
    toKeyBlock: next.block.keyBlock,
    from: toTlBlockId(cur.id),
    to: toTlBlockId(next.id),
    destProof: headerOf(next),
    configProof: serializeProofs([configProof]),
    signatures: {
      kind: 'liteServer.signatureSet.ordinary',
      validatorSetHash: chain.validator.validatorSetHash(0) | 0,
      catchainSeqno: 0,
      signatures: [{ kind: 'liteServer.signature', nodeIdShort: chain.validator.nodeIdShort, signature: next.block.signature }],
    },
  };
}
