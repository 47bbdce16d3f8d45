import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { Cell } from '@ton/core';
import { nodeIdShort, signedBlockIdBytes, type Signature, type ValidatorSetEntry } from '../tl';
import { loadValidatorDescr, loadValidatorSet } from '../tlb';
import { hashmapLookup } from '../cells';

/**
 * The masterchain validators of a key block's configuration and the signature rule of a forward
 * proof link (TON's `check_block_signatures`): every signature comes from a validator of the set,
 * none twice, each verifies over the `ton.blockId` TL of the block, and together they carry more
 * than two thirds of the set's weight.
 */

export interface MasterchainValidator extends ValidatorSetEntry {
  /** `sha256(pub.ed25519 TL ‖ key)`: how signatures name their validator. */
  readonly nodeIdShort: Buffer;
}

/** DER prefix of an ed25519 SubjectPublicKeyInfo; the 32-byte key follows. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
/** Masterchain validator sets are at most a few hundred; this bounds a forged `main`. */
const MAX_VALIDATORS = 1000;

/**
 * The validators that sign masterchain blocks under configuration `configRoot` (the ConfigParams
 * dictionary): the first `main` entries of the current set (param 34), as TON takes them for the
 * masterchain (no shuffling).
 */
export function masterchainValidators(configRoot: Cell): MasterchainValidator[] {
  const p34 = hashmapLookup(configRoot, 32, 34n);
  if (!p34) throw new Error('the configuration has no current validator set (param 34)');
  const set = loadValidatorSet(p34.loadRef().beginParse());
  const count = Math.min(set.main, set.total);
  if (count === 0 || count > MAX_VALIDATORS || !set.list.root) throw new Error(`validator set of ${count} validators`);
  const validators: MasterchainValidator[] = [];
  for (let i = 0; i < count; i++) {
    const entry = hashmapLookup(set.list.root, 16, BigInt(i));
    if (!entry) throw new Error(`validator set lacks validator #${i}`);
    const descr = loadValidatorDescr(entry);
    validators.push({
      publicKey: descr.publicKey,
      weight: descr.weight,
      adnlAddr: descr.adnlAddr ?? Buffer.alloc(32),
      nodeIdShort: nodeIdShort(descr.publicKey),
    });
  }
  return validators;
}

function ed25519Key(raw: Buffer): KeyObject {
  return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

/**
 * Throws unless `signatures` of block (rootHash, fileHash) meet the rule above. Node's native
 * ed25519 keeps a hundred checks well under a millisecond each.
 */
export function checkBlockSignatures(
  validators: readonly MasterchainValidator[],
  signatures: readonly Signature[],
  rootHash: Buffer,
  fileHash: Buffer,
): void {
  if (signatures.length === 0) throw new Error('no signatures');
  const byNode = new Map<string, number>();
  let total = 0n;
  validators.forEach((v, i) => {
    total += v.weight;
    byNode.set(v.nodeIdShort.toString('hex'), i);
  });
  const message = signedBlockIdBytes(rootHash, fileHash);
  const seen = new Set<number>();
  let signed = 0n;
  for (const sig of signatures) {
    const node = sig.nodeIdShort.toString('hex');
    const index = byNode.get(node);
    if (index === undefined) throw new Error(`signature from unknown validator ${node}`);
    if (seen.has(index)) throw new Error(`two signatures from validator ${node}`);
    seen.add(index);
    const validator = validators[index]!;
    if (sig.signature.length !== 64 || !verify(null, message, ed25519Key(validator.publicKey), sig.signature)) {
      throw new Error(`bad signature of validator ${node}`);
    }
    signed += validator.weight;
  }
  if (3n * signed <= 2n * total) throw new Error(`insufficient signature weight: ${signed} of ${total}`);
}
