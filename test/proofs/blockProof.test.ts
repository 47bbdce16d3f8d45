/**
 * The masterchain proof-chain checker (src/chain/blockProof.ts) on real proofs of the local chain:
 * forward links from the zerostate and from key blocks (validator set from the config, signatures,
 * the two-thirds weight rule), backward links (prev_blocks of a newer state), and what it rejects.
 */
import { LiteServerProofError } from '../../src/errors';
import { checkProofChain } from '../../src/proofs/blockProof';
import { checkBlockSignatures, masterchainValidators, type MasterchainValidator } from '../../src/proofs/validatorSignatures';
import { nodeIdShort } from '../../src/tl';
import { LocalChain } from '../../src/localnet/ledger/LocalChain';
import { getBlockProof } from '../../src/localnet/liteserver/queries/getBlockProof';
import { toTlBlockId } from '../../src/localnet/liteserver/queries/common';
import { configDict } from '../../src/localnet/ledger/config';
import type { BlockIdExt, BlockLinkForward, PartialBlockProof, Signature } from '../../src/tl';
import { createPrivateKey, randomBytes, sign } from 'node:crypto';
import nacl from 'tweetnacl';
import type { LiteQueryContext } from '../../src/localnet/liteserver/dispatcher';

const NO_CONTEXT = {} as LiteQueryContext;

const PKCS8 = Buffer.from('302e020100300506032b657004220420', 'hex');

function signWith(seed: Buffer, message: Buffer): Buffer {
  return sign(null, message, createPrivateKey({ key: Buffer.concat([PKCS8, seed]), format: 'der', type: 'pkcs8' }));
}

describe('masterchain proof chains of the local chain', () => {
  let chain: LocalChain;
  let prove: ReturnType<typeof getBlockProof>;
  let zero: BlockIdExt;

  beforeAll(async () => {
    chain = await LocalChain.create({ blockIntervalMs: 0, shards: 1 });
    for (let i = 0; i < 6; i++) await chain.seal();
    prove = getBlockProof(chain);
    zero = toTlBlockId(chain.zeroState.id);
  });

  const mc = (seqno: number): BlockIdExt => toTlBlockId(chain.store.bySeqno(-1, seqno)!.id);
  const ask = (from: BlockIdExt, to?: BlockIdExt) =>
    prove({ kind: 'liteServer.getBlockProof', mode: to ? 1 : 0, knownBlock: from, targetBlock: to ?? null } as never, NO_CONTEXT) as Promise<PartialBlockProof>;

  it('proves the head from the zerostate (the init_block) through the key block', async () => {
    const proof = await ask(zero);
    const chainResult = checkProofChain(proof, zero, mc(6));
    expect(chainResult.to.seqno).toBe(6);
    expect(chainResult.keyBlock?.seqno).toBe(1);
    expect(proof.steps.map((s) => s.kind)).toEqual(['liteServer.blockLinkForward', 'liteServer.blockLinkForward']);
  });

  it('proves an older block backwards from a newer one', async () => {
    const proof = await ask(mc(6), mc(2));
    expect(proof.steps.map((s) => s.kind)).toEqual(['liteServer.blockLinkBack']);
    expect(checkProofChain(proof, mc(6), mc(2)).to.seqno).toBe(2);
  });

  it('rejects a signature by a key outside the validator set', async () => {
    const proof = await ask(mc(1), mc(5));
    const link = proof.steps[0] as BlockLinkForward;
    const seed = randomBytes(32);
    const stranger = Buffer.from(nacl.sign.keyPair.fromSeed(seed).publicKey);
    const message = Buffer.concat([Buffer.from('706e0bc5', 'hex'), link.to.rootHash, link.to.fileHash]);
    const forged: Signature = { kind: 'liteServer.signature', nodeIdShort: nodeIdShort(stranger), signature: signWith(seed, message) };
    const tampered = { ...proof, steps: [{ ...link, signatures: { ...link.signatures, signatures: [forged] } }] } as PartialBlockProof;
    expect(() => checkProofChain(tampered, mc(1), mc(5))).toThrow(/LITE_SERVER_PROOF: signatures of .* unknown validator/);
  });

  it('rejects a forged signature of the real validator and a proof of another target', async () => {
    const proof = await ask(mc(1), mc(5));
    const link = proof.steps[0] as BlockLinkForward;
    const sig = link.signatures.signatures[0]!;
    const bad = Buffer.from(sig.signature);
    bad[10] ^= 1;
    const broken = { ...proof, steps: [{ ...link, signatures: { ...link.signatures, signatures: [{ ...sig, signature: bad }] } }] } as PartialBlockProof;
    expect(() => checkProofChain(broken, mc(1), mc(5))).toThrow(/bad signature/);
    // The honest proof of block 5 does not prove block 4, nor does it start at the zerostate.
    expect(() => checkProofChain(proof, mc(1), mc(4))).toThrow(LiteServerProofError);
    expect(() => checkProofChain(proof, zero, mc(5))).toThrow(/not at the trusted/);
  });

  it('a second chain cannot prove its blocks from the first chain\'s zerostate', async () => {
    const other = await LocalChain.create({ blockIntervalMs: 0, shards: 1 });
    for (let i = 0; i < 3; i++) await other.seal();
    const otherProof = (await getBlockProof(other)({ kind: 'liteServer.getBlockProof', mode: 0, knownBlock: toTlBlockId(other.zeroState.id), targetBlock: null } as never, NO_CONTEXT)) as PartialBlockProof;
    expect(checkProofChain(otherProof, toTlBlockId(other.zeroState.id)).to.seqno).toBe(3);
    // Same links, claimed from our zerostate: the first link does not start there.
    expect(() => checkProofChain({ ...otherProof, from: zero }, zero)).toThrow(LiteServerProofError);
    // Even relabelled to start at our zerostate, the config proof is of another state.
    const relabelled = { ...otherProof, from: zero, steps: [{ ...otherProof.steps[0]!, from: zero }, ...otherProof.steps.slice(1)] } as PartialBlockProof;
    expect(() => checkProofChain(relabelled, zero)).toThrow(/config proof of another zerostate/);
  });

  describe('the two-thirds weight rule', () => {
    const block = { root: randomBytes(32), file: randomBytes(32) };
    const message = Buffer.concat([Buffer.from('706e0bc5', 'hex'), block.root, block.file]);
    const seeds = [randomBytes(32), randomBytes(32), randomBytes(32)];
    const set: MasterchainValidator[] = seeds.map((seed, i) => {
      const publicKey = Buffer.from(nacl.sign.keyPair.fromSeed(seed).publicKey);
      return { publicKey, weight: [50n, 30n, 20n][i]!, adnlAddr: Buffer.alloc(32), nodeIdShort: nodeIdShort(publicKey) };
    });
    const sigOf = (i: number): Signature => ({ kind: 'liteServer.signature', nodeIdShort: set[i]!.nodeIdShort, signature: signWith(seeds[i]!, message) });

    it('needs strictly more than 2/3 of the total weight, from distinct validators', () => {
      // 50 + 30 = 80 of 100: enough.
      expect(() => checkBlockSignatures(set, [sigOf(0), sigOf(1)], block.root, block.file)).not.toThrow();
      // 50 + 20 = 70 > 66.6: enough; 30 + 20 = 50: not.
      expect(() => checkBlockSignatures(set, [sigOf(0), sigOf(2)], block.root, block.file)).not.toThrow();
      expect(() => checkBlockSignatures(set, [sigOf(1), sigOf(2)], block.root, block.file)).toThrow(/insufficient signature weight: 50 of 100/);
      // The same validator twice does not count twice.
      expect(() => checkBlockSignatures(set, [sigOf(0), sigOf(0)], block.root, block.file)).toThrow(/two signatures/);
      // Signatures of another block do not count.
      expect(() => checkBlockSignatures(set, [sigOf(0), sigOf(1)], block.file, block.root)).toThrow(/bad signature/);
    });

    it('reads the local chain\'s set from its config: one validator with the whole weight', () => {
      const validators = masterchainValidators(chain.config.root);
      expect(validators).toHaveLength(1);
      expect(validators[0]!.publicKey.equals(chain.validator.publicKey)).toBe(true);
      expect(configDict(chain.config.root).get(34)).toBeDefined();
    });
  });
});
