/**
 * The 256-byte ADNL/TCP handshake: server key id (32) ‖ client ephemeral ed25519 key (32) ‖
 * SHA-256 of the session params (32) ‖ the 160 params encrypted with AES-256-CTR under a key
 * derived from the shared secret. The params then seed one AES-256-CTR stream per direction.
 */
import { Cipher, Decipher, createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'crypto';
import { AdnlKeyPair, adnlSharedSecret, createAdnlKeyPair, adnlShortId } from './keys';

export const HANDSHAKE_SIZE = 256;
const PARAMS_SIZE = 160;

export class AdnlHandshakeError extends Error {
  override name = 'AdnlHandshakeError';
}

/** The two session ciphers of one side of a connection. */
export interface AdnlSessionCiphers {
  /** Encrypts what this side sends. */
  readonly encrypt: Cipher;
  /** Decrypts what this side receives. */
  readonly decrypt: Decipher;
}

function handshakeCipherKey(secret: Buffer, paramsHash: Buffer): { key: Buffer; iv: Buffer } {
  return {
    key: Buffer.concat([secret.subarray(0, 16), paramsHash.subarray(16, 32)]),
    iv: Buffer.concat([paramsHash.subarray(0, 4), secret.subarray(20, 32)]),
  };
}

/** Validates a client handshake and returns the server's session ciphers. Throws AdnlHandshakeError. */
export function acceptHandshake(packet: Buffer, server: AdnlKeyPair): AdnlSessionCiphers {
  if (packet.length !== HANDSHAKE_SIZE) throw new AdnlHandshakeError(`handshake must be ${HANDSHAKE_SIZE} bytes`);
  const keyId = packet.subarray(0, 32);
  if (!timingSafeEqual(keyId, server.shortId)) throw new AdnlHandshakeError('handshake is for another key id');
  const clientPublicKey = packet.subarray(32, 64);
  const paramsHash = packet.subarray(64, 96);
  let secret: Buffer;
  try {
    secret = adnlSharedSecret(server.seed, clientPublicKey);
  } catch (err) {
    throw new AdnlHandshakeError(`bad client key: ${(err as Error).message}`);
  }
  const { key, iv } = handshakeCipherKey(secret, paramsHash);
  const decipher = createDecipheriv('aes-256-ctr', key, iv);
  const params = Buffer.concat([decipher.update(packet.subarray(96)), decipher.final()]);
  if (!createHash('sha256').update(params).digest().equals(paramsHash)) {
    throw new AdnlHandshakeError('handshake params checksum mismatch');
  }
  return {
    decrypt: createDecipheriv('aes-256-ctr', params.subarray(32, 64), params.subarray(80, 96)),
    encrypt: createCipheriv('aes-256-ctr', params.subarray(0, 32), params.subarray(64, 80)),
  };
}

export interface ClientHandshake extends AdnlSessionCiphers {
  /** The 256 bytes to send first. */
  readonly packet: Buffer;
}

/**
 * Client side of the handshake (what the `adnl` package does), used by raw-socket tests and
 * tooling. `params` may be fixed for reproducibility; a fresh ephemeral key is always used.
 */
export function createClientHandshake(serverPublicKey: Buffer, params: Buffer = randomBytes(PARAMS_SIZE)): ClientHandshake {
  if (params.length !== PARAMS_SIZE) throw new Error(`params must be ${PARAMS_SIZE} bytes`);
  const ephemeral = createAdnlKeyPair();
  const secret = adnlSharedSecret(ephemeral.seed, serverPublicKey);
  const paramsHash = createHash('sha256').update(params).digest();
  const { key, iv } = handshakeCipherKey(secret, paramsHash);
  const cipher = createCipheriv('aes-256-ctr', key, iv);
  const encryptedParams = Buffer.concat([cipher.update(params), cipher.final()]);
  return {
    packet: Buffer.concat([adnlShortId(serverPublicKey), ephemeral.publicKey, paramsHash, encryptedParams]),
    encrypt: createCipheriv('aes-256-ctr', params.subarray(32, 64), params.subarray(80, 96)),
    decrypt: createDecipheriv('aes-256-ctr', params.subarray(0, 32), params.subarray(64, 80)),
  };
}
