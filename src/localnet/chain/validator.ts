import { crc32cValue } from '../cells';
import { createHash, createPrivateKey, KeyObject, sign } from 'crypto';
import nacl from 'tweetnacl';

/** PKCS#8 DER prefix of an ed25519 private key; the 32-byte seed follows it. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** TL constructor of `ton.blockId root_cell_hash:int256 file_hash:int256`: what validators sign. */
const TON_BLOCK_ID_MAGIC = 0xc50b6e70;
/** TL constructor of `pub.ed25519 key:int256`: short node ids hash it with the key. */
const PUB_ED25519_MAGIC = 0x4813b4c6;
/** `compute_validator_set_hash` starts with this magic (inherited from test0.validatorSet). */
const VALIDATOR_SET_HASH_MAGIC = -1877581587;

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
    const magic = Buffer.alloc(4);
    magic.writeUInt32LE(PUB_ED25519_MAGIC, 0);
    return createHash('sha256').update(magic).update(this.publicKey).digest();
  }

  /** ed25519 signature over `LE32(0xc50b6e70) ‖ root_hash ‖ file_hash`. */
  signBlock(rootHash: Buffer, fileHash: Buffer): Buffer {
    return sign(null, blockSignaturePayload(rootHash, fileHash), this.privateKey);
  }

  /** TON's `compute_validator_set_hash` over the one-validator set at catchain seqno `ccSeqno`. */
  validatorSetHash(ccSeqno: number): number {
    const buf = Buffer.alloc(12 + 72);
    buf.writeInt32LE(VALIDATOR_SET_HASH_MAGIC, 0);
    buf.writeInt32LE(ccSeqno, 4);
    buf.writeUInt32LE(1, 8);
    this.publicKey.copy(buf, 12);
    buf.writeBigInt64LE(this.weight, 44);
    // adnl_addr: zero for `validator#53` descriptors.
    return crc32cValue(buf);
  }
}

export function blockSignaturePayload(rootHash: Buffer, fileHash: Buffer): Buffer {
  const payload = Buffer.alloc(68);
  payload.writeUInt32LE(TON_BLOCK_ID_MAGIC, 0);
  rootHash.copy(payload, 4);
  fileHash.copy(payload, 36);
  return payload;
}
