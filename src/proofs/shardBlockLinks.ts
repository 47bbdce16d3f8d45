import { MASTERCHAIN } from '../constants';
import { loadBlockHeaderPart, type ExtBlkRef } from '../tlb';
import type { BlockIdExt, ShardBlockProof } from '../tl';
import { sameBlock } from './answers';
import { merkleProofContents, proofFailure, provenBlock, provenDictValue, provenShardHashes, proving, shardLeaf } from './checks';
import type { BlockRef } from './chainSession';

/**
 * A shard block is only as good as the masterchain block that registered it: as tonlib does for
 * shard blocks, liteServer.getShardBlockProof links it to a masterchain block (the first link is
 * that block's proof listing the shard's top block in McBlockExtra.shard_hashes, each next one a
 * header proof whose prev_ref names the next block down), and that masterchain block must be
 * the verified one with its seqno.
 */

/** tonlib refuses longer chains of shard links. */
const MAX_LINKS = 8;

function sameRef(ref: ExtBlkRef, id: BlockIdExt): boolean {
  return ref.seqno === id.seqno && ref.rootHash.equals(id.rootHash) && ref.fileHash.equals(id.fileHash);
}

/** The link chain of one answer, from its masterchain block down to `block`. */
export function checkShardBlockLinks(block: BlockRef, answer: ShardBlockProof): void {
  const what = 'shard block proof';
  if (answer.masterchainId.workchain !== MASTERCHAIN) proofFailure(`${what}: masterchain_id is not a masterchain block`);
  if (answer.links.length === 0 || answer.links.length > MAX_LINKS) proofFailure(`${what}: ${answer.links.length} links`);
  let container: BlockRef = answer.masterchainId;
  for (const [index, link] of answer.links.entries()) {
    const [content] = merkleProofContents(link.proof, 1, what);
    const root = provenBlock(content, container, what);
    if (link.id.workchain !== block.workchain) proofFailure(`${what}: a link to another workchain`);
    proving(what, () => {
      if (index === 0) {
        const shardHashes = provenShardHashes(root);
        const tree = provenDictValue(shardHashes, 32, BigInt.asUintN(32, BigInt(link.id.workchain)), what);
        if (!tree) throw new Error('the masterchain block lists no shard of the workchain');
        const leaf = shardLeaf(tree.loadRef(), BigInt.asUintN(64, BigInt(link.id.shard)));
        const listed: BlockRef = {
          ...link.id,
          shard: BigInt.asIntN(64, leaf.shard).toString(),
          seqno: leaf.descr.seqno,
          rootHash: leaf.descr.rootHash,
          fileHash: leaf.descr.fileHash,
        };
        if (!sameBlock(listed, link.id)) throw new Error('the masterchain block does not list the shard block');
      } else {
        const { info } = loadBlockHeaderPart(root);
        const prev = info.prevRef;
        const named = prev.kind === 'single' ? sameRef(prev.prev, link.id) : sameRef(prev.prev1, link.id) || sameRef(prev.prev2, link.id);
        if (!named) throw new Error('a shard block does not name the next link as its previous block');
      }
    });
    container = link.id;
  }
  if (!sameBlock(container, block)) proofFailure(`${what}: the links do not end at the block`);
}
