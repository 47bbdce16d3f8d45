import type { Logger } from 'pino';
import { checkProofChain, sameBlock, type BlockRef } from '../proofs';
import { LiteServerProofError } from '../errors';
import type { BlockIdExt, LiteQueryOf, PartialBlockProof } from '../tl';
import type { KeyBlockStore, TrustAnchor } from './trust';

/**
 * The pool's verified masterchain, walked as tonlib's LastBlock does: from the newest key block
 * proven so far (at first the trust anchor), `liteServer.getBlockProof` to a server's head; each
 * answer is checked link by link (src/chain/blockProof.ts) before the head is believed. Every
 * block a checked chain passes through is proven, and so is every key block, which becomes the
 * start of later walks and is saved for the next start. Older blocks are proven backwards from a
 * proven newer one (`prove(from: a proven block, target)`).
 */

export type BlockProofQuery = (query: LiteQueryOf<'liteServer.getBlockProof'>) => Promise<PartialBlockProof>;

/** Proven masterchain blocks remembered by seqno (heads of every server, links walked, lookups). */
const PROVEN_BLOCKS = 4096;
/** getBlockProof answers one walk may take (a server answers at most some links per answer). */
const MAX_ROUNDS = 64;

function tlId(id: BlockRef): BlockIdExt {
  return { kind: 'tonNode.blockIdExt', workchain: id.workchain, shard: id.shard, seqno: id.seqno, rootHash: id.rootHash, fileHash: id.fileHash };
}

export class HeadVerifier {
  private keyBlockValue: BlockIdExt;
  private readonly anchorStart: BlockIdExt;
  private readonly proven = new Map<number, BlockIdExt>();
  /** Head walks under way, by head: another server reporting the same head waits for it. */
  private readonly walks = new Map<string, Promise<void>>();

  constructor(
    anchor: TrustAnchor,
    private readonly store: KeyBlockStore | null,
    private readonly logger: Logger,
  ) {
    this.keyBlockValue = anchor.start;
    this.anchorStart = anchor.start;
    this.remember(anchor.start);
    const saved = store?.load() ?? null;
    // Our own cache of a block we proved earlier is as trusted as the anchor it was proven from.
    if (saved && saved.seqno > anchor.start.seqno) {
      this.keyBlockValue = saved;
      this.remember(saved);
      logger.info({ seqno: saved.seqno }, 'masterchain proofs resume from the saved key block');
    }
  }

  /** The newest proven key block (or the trust anchor): where head walks start. */
  get keyBlock(): BlockIdExt {
    return this.keyBlockValue;
  }

  /** The proven masterchain block of this seqno, if one is known. */
  provenBlock(seqno: number): BlockIdExt | undefined {
    return this.proven.get(seqno);
  }

  isProven(block: BlockRef): boolean {
    const known = this.proven.get(block.seqno);
    return known !== undefined && sameBlock(known, block);
  }

  /**
   * Proves a server's head (from the newest key block). Throws LiteServerProofError, or the query's
   * errors. Servers usually report the same head: one walk serves them all (at start, a walk from
   * an old init_block is many answers); if that walk fails, the waiting server walks itself.
   */
  proveHead(query: BlockProofQuery, head: BlockRef): Promise<void> {
    if (this.isProven(head)) return Promise.resolve();
    const key = `${head.seqno}:${head.rootHash.toString('hex')}`;
    const running = this.walks.get(key);
    if (running) return running.catch(() => this.prove(query, this.keyBlockValue, head));
    const walk = this.prove(query, this.keyBlockValue, head).finally(() => this.walks.delete(key));
    this.walks.set(key, walk);
    return walk;
  }

  /**
   * Proves `target` from the proven block `from` (forward from a key block, backward from a newer
   * block), in as many answers as the server needs.
   */
  async prove(query: BlockProofQuery, from: BlockRef, target: BlockRef): Promise<void> {
    if (target.workchain !== -1) throw new LiteServerProofError('only masterchain blocks are proven by block proofs');
    if (this.isProven(target)) return;
    const known = this.proven.get(target.seqno);
    if (known) throw new LiteServerProofError(`block ${target.seqno} differs from the proven block of that height`);
    let cur = tlId(from);
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const proof = await query({ kind: 'liteServer.getBlockProof', mode: 1, knownBlock: cur, targetBlock: tlId(target) });
      const chain = checkProofChain(proof, cur);
      for (const link of proof.steps) this.remember(link.to);
      if (chain.keyBlock) this.learnKeyBlock(tlId(chain.keyBlock));
      if (sameBlock(chain.to, target)) return;
      if (proof.complete) throw new LiteServerProofError(`proof of block ${target.seqno} ends at another block`);
      if (proof.steps.length === 0) throw new LiteServerProofError(`proof of block ${target.seqno} makes no progress`);
      cur = tlId(chain.to);
    }
    throw new LiteServerProofError(`proof of block ${target.seqno} takes more than ${MAX_ROUNDS} answers`);
  }

  /**
   * The embedded chain was put back to block `seqno` by its operator (POST /localnet/restore): the
   * blocks proven above it are gone from that chain and their seqnos will name new blocks. Only
   * the embedded chain's own controls call this; a real network never rewinds, and a server that
   * claims it did is refused by the proofs.
   */
  rewind(seqno: number): void {
    for (const known of [...this.proven.keys()]) if (known > seqno) this.proven.delete(known);
    if (this.keyBlockValue.seqno > seqno) {
      // Walks start again from the anchor (the newest key block below may not be remembered).
      this.keyBlockValue = this.anchorStart;
      this.remember(this.anchorStart);
    }
  }

  private remember(block: BlockIdExt): void {
    this.proven.delete(block.seqno);
    this.proven.set(block.seqno, block);
    if (this.proven.size > PROVEN_BLOCKS) this.proven.delete(this.proven.keys().next().value as number);
  }

  private learnKeyBlock(block: BlockIdExt): void {
    if (block.seqno <= this.keyBlockValue.seqno) return;
    this.keyBlockValue = block;
    if (this.store && !this.store.save(block)) this.logger.warn({ seqno: block.seqno }, 'cannot save the proven key block in --config-cache-dir');
  }
}
