import { createHash } from 'node:crypto';
import { crc32cValue } from '../cells';

/**
 * The bytes validators sign and name themselves by (TON's TL forms): shared by the proof checks
 * (src/proofs) and the embedded chain's validator (src/localnet), which signs what the checks verify.
 */

/** What the validator set hash covers of one validator. */
export interface ValidatorSetEntry {
  readonly publicKey: Buffer;
  readonly weight: bigint;
  /** `adnl_addr` of a `validator_addr#73` descriptor; zero bytes otherwise (it enters the set hash). */
  readonly adnlAddr: Buffer;
}

/** TL constructor of `pub.ed25519 key:int256`, written little-endian before the key. */
const PUB_ED25519 = 0x4813b4c6;
/** TL constructor of `ton.blockId root_cell_hash:int256 file_hash:int256` (what validators sign). */
const TON_BLOCK_ID = 0xc50b6e70;
/** `compute_validator_set_hash` starts with this (`test0.validatorSet`). */
const VALIDATOR_SET_MAGIC = -1877581587;

/** `sha256(pub.ed25519 TL ‖ key)`: how signatures name their validator. */
export function nodeIdShort(publicKey: Buffer): Buffer {
  const magic = Buffer.alloc(4);
  magic.writeUInt32LE(PUB_ED25519, 0);
  return createHash('sha256').update(magic).update(publicKey).digest();
}

/** TON's `compute_validator_set_hash`: crc32c over the set as catchain `ccSeqno` sees it (unsigned). */
export function validatorSetHash(ccSeqno: number, validators: readonly ValidatorSetEntry[]): number {
  const buf = Buffer.alloc(12 + validators.length * 72);
  buf.writeInt32LE(VALIDATOR_SET_MAGIC, 0);
  buf.writeInt32LE(ccSeqno | 0, 4);
  buf.writeUInt32LE(validators.length, 8);
  validators.forEach((v, i) => {
    const at = 12 + i * 72;
    v.publicKey.copy(buf, at);
    buf.writeBigUInt64LE(v.weight, at + 32);
    v.adnlAddr.copy(buf, at + 40);
  });
  return crc32cValue(buf) >>> 0;
}

/** The 68 bytes a validator signs for a block: `ton.blockId` TL of its root and file hashes. */
export function signedBlockIdBytes(rootHash: Buffer, fileHash: Buffer): Buffer {
  const bytes = Buffer.alloc(68);
  bytes.writeUInt32LE(TON_BLOCK_ID, 0);
  rootHash.copy(bytes, 4);
  fileHash.copy(bytes, 36);
  return bytes;
}
