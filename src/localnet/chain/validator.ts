import { createPrivateKey, KeyObject, sign } from 'crypto';
import { nodeIdShort, signedBlockIdBytes, validatorSetHash } from '../../chain/validatorSignatures';
import nacl from 'tweetnacl';

/** PKCS#8 DER prefix of an ed25519 private key; the 32-byte seed follows it. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The chain's only validator: holds the key that signs every masterchain block. */
export class LocalValidator {
  readonly publicKey: Buffer;
  /** Node's native ed25519 key: signing each block in JavaScript costs milliseconds. */
  private readonly privateKey: KeyObject;
  /** Weight in the local validator set (all of it). */
  readonly weight = 1n << 60n;

  constructor(readonly seed: Buffer) {
    if (seed.length !== 32) throw new Error('validator seed must be 32 bytes');
    const pair = nacl.sign.keyPair.fromSeed(seed);
    this.publicKey = Buffer.from(pair.publicKey);
    this.privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
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
