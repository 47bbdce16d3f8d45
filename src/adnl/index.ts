/** ADNL/TCP protocol pieces shared by the local lite server and the pool's client: keys, handshake, frames. */
export { adnlShortId, createAdnlKeyPair, ed25519PublicKeyToX25519, adnlSharedSecret } from './keys';
export type { AdnlKeyPair } from './keys';
export { acceptHandshake, createClientHandshake, AdnlHandshakeError, HANDSHAKE_SIZE } from './handshake';
export type { AdnlSessionCiphers, ClientHandshake } from './handshake';
export { encodeFrame, FrameReader, AdnlFrameError, DEFAULT_MAX_FRAME_SIZE, FRAME_OVERHEAD } from './frames';
