/**
 * ADNL keys: the server's long-term ed25519 key, its ADNL short id, and the X25519 shared secret
 * both sides derive from ed25519 keys (TON's Ed25519::compute_shared_secret).
 */
import { createHash, randomBytes } from 'crypto';
import nacl from 'tweetnacl';

export interface AdnlKeyPair {
  /** 32-byte ed25519 seed (the private key as TON configs store it). */
  readonly seed: Buffer;
  readonly publicKey: Buffer;
  /** SHA-256 of the TL `pub.ed25519 key:int256`: what clients put in the first 32 handshake bytes. */
  readonly shortId: Buffer;
}

const PUB_ED25519_ID = 0x4813b4c6;
const FIELD_PRIME = 2n ** 255n - 19n;

export function adnlShortId(publicKey: Buffer): Buffer {
  const tl = Buffer.alloc(36);
  tl.writeUInt32LE(PUB_ED25519_ID, 0);
  publicKey.copy(tl, 4);
  return createHash('sha256').update(tl).digest();
}

export function createAdnlKeyPair(seed?: Buffer): AdnlKeyPair {
  const keySeed = seed ?? randomBytes(32);
  if (keySeed.length !== 32) throw new Error(`ADNL key seed must be 32 bytes, got ${keySeed.length}`);
  const publicKey = Buffer.from(nacl.sign.keyPair.fromSeed(keySeed).publicKey);
  return { seed: Buffer.from(keySeed), publicKey, shortId: adnlShortId(publicKey) };
}

function modPow(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = base % FIELD_PRIME;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % FIELD_PRIME;
    b = (b * b) % FIELD_PRIME;
    e >>= 1n;
  }
  return result;
}

function readLittleEndian(bytes: Buffer): bigint {
  return BigInt(`0x${Buffer.from(bytes).reverse().toString('hex') || '0'}`);
}

function writeLittleEndian32(value: bigint): Buffer {
  return Buffer.from(value.toString(16).padStart(64, '0'), 'hex').reverse();
}

/** Birational map from the Edwards y coordinate to the Montgomery u coordinate: u = (1+y)/(1-y). */
export function ed25519PublicKeyToX25519(publicKey: Buffer): Buffer {
  if (publicKey.length !== 32) throw new Error('ed25519 public key must be 32 bytes');
  const encoded = Buffer.from(publicKey);
  encoded[31] &= 0x7f; // the top bit is the sign of x, not part of y
  const y = readLittleEndian(encoded) % FIELD_PRIME;
  const denominator = (1n - y + FIELD_PRIME) % FIELD_PRIME;
  if (denominator === 0n) throw new Error('ed25519 public key has no Montgomery form');
  const u = ((1n + y) * modPow(denominator, FIELD_PRIME - 2n)) % FIELD_PRIME;
  return writeLittleEndian32(u);
}

/**
 * X25519 of our ed25519 seed's scalar (first half of SHA-512(seed); nacl.scalarMult clamps it)
 * with the peer's ed25519 public key mapped to Montgomery form.
 */
export function adnlSharedSecret(ourSeed: Buffer, peerPublicKey: Buffer): Buffer {
  const scalar = createHash('sha512').update(ourSeed).digest().subarray(0, 32);
  const secret = Buffer.from(nacl.scalarMult(scalar, ed25519PublicKeyToX25519(peerPublicKey)));
  // A low-order peer point gives an all-zero secret that an attacker could predict.
  if (secret.every((byte) => byte === 0)) throw new Error('degenerate shared secret');
  return secret;
}
