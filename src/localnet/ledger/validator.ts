import { createPrivateKey, createPublicKey, KeyObject, sign } from 'crypto';
import { nodeIdShort, signedBlockIdBytes, validatorSetHash } from '../../tl';

/** PKCS#8 DER prefix of an ed25519 private key; the 32-byte seed follows it. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
/** Length of the SPKI DER prefix of an ed25519 public key; the 32-byte key follows it. */
const ED25519_SPKI_PREFIX_LENGTH = 12;

/** An ed25519 key from its seed, as node:crypto's KeyObject and as raw bytes. */
export interface Ed25519Key {
  privateKey: KeyObject;
  publicKey: Buffer;
  /** tweetnacl's (and @ton/crypto's) 64-byte secret key: the seed, then the public key. */
  secretKey: Buffer;
}

/**
 * The ed25519 key of a 32-byte seed, derived by node:crypto: tweetnacl's pure-JS derivation costs
 * ~20 ms the first time (cold code) and a few ms after, on the start's critical path.
 */
export function ed25519FromSeed(seed: Buffer): Ed25519Key {
  if (seed.length !== 32) throw new Error('ed25519 seed must be 32 bytes');
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  const publicKey = Buffer.from(spki.subarray(ED25519_SPKI_PREFIX_LENGTH));
  return { privateKey, publicKey, secretKey: Buffer.concat([seed, publicKey]) };
}

/** The chain's only validator: holds the key that signs every masterchain block. */
export class LocalValidator {
  readonly publicKey: Buffer;
  /** Node's native ed25519 key: signing each block in JavaScript costs milliseconds. */
  private readonly privateKey: KeyObject;
  /** Weight in the local validator set (all of it). */
  readonly weight = 1n << 60n;

  constructor(readonly seed: Buffer) {
    if (seed.length !== 32) throw new Error('validator seed must be 32 bytes');
    const key = ed25519FromSeed(seed);
    this.publicKey = key.publicKey;
    this.privateKey = key.privateKey;
  }

  /** `node_id_short = sha256(LE32(pub.ed25519) ‖ pubkey)`. */
  get nodeIdShort(): Buffer {
    return nodeIdShort(this.publicKey);
  }

  /** ed25519 signature over `LE32(0xc50b6e70) ‖ root_hash ‖ file_hash`. */
  signBlock(rootHash: Buffer, fileHash: Buffer): Buffer {
    return sign(null, signedBlockIdBytes(rootHash, fileHash), this.privateKey);
  }

  /** TON's `compute_validator_set_hash` over the one-validator set at catchain seqno `ccSeqno`. */
  validatorSetHash(ccSeqno: number): number {
    // adnl_addr: zero for `validator#53` descriptors. The same function checks proofs in src/chain.
    const self = { publicKey: this.publicKey, weight: this.weight, adnlAddr: Buffer.alloc(32), nodeIdShort: this.nodeIdShort };
    return validatorSetHash(ccSeqno, [self]);
  }
}
