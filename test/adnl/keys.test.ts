import { createHash } from 'crypto';
import {
  adnlSharedSecret,
  adnlShortId,
  acceptHandshake,
  createAdnlKeyPair,
  createClientHandshake,
  ed25519PublicKeyToX25519,
} from '../../src/adnl';

describe('ADNL keys', () => {
  it('maps the ed25519 base point to the X25519 base point u = 9', () => {
    const basePoint = Buffer.from('5866666666666666666666666666666666666666666666666666666666666666', 'hex');
    const expected = Buffer.alloc(32);
    expected[0] = 9;
    expect(ed25519PublicKeyToX25519(basePoint).toString('hex')).toBe(expected.toString('hex'));
  });

  it('derives the same shared secret on both sides', () => {
    for (let i = 0; i < 8; i++) {
      const a = createAdnlKeyPair();
      const b = createAdnlKeyPair();
      const secret = adnlSharedSecret(a.seed, b.publicKey);
      expect(secret).toHaveLength(32);
      expect(adnlSharedSecret(b.seed, a.publicKey).equals(secret)).toBe(true);
    }
  });

  it('rejects keys without a usable Montgomery form', () => {
    const identity = Buffer.alloc(32);
    identity[0] = 1; // y = 1: the neutral element
    expect(() => ed25519PublicKeyToX25519(identity)).toThrow(/no Montgomery form/);
    // y = 0 maps to u = 1, a low-order point: X25519 gives all zeros.
    expect(() => adnlSharedSecret(createAdnlKeyPair().seed, Buffer.alloc(32))).toThrow(/degenerate/);
  });

  it('is deterministic for a given seed and checks its length', () => {
    const seed = Buffer.alloc(32, 3);
    const pair = createAdnlKeyPair(seed);
    expect(createAdnlKeyPair(seed).publicKey.equals(pair.publicKey)).toBe(true);
    const tl = Buffer.concat([Buffer.from('c6b41348', 'hex'), pair.publicKey]);
    expect(pair.shortId.equals(createHash('sha256').update(tl).digest())).toBe(true);
    expect(adnlShortId(pair.publicKey).equals(pair.shortId)).toBe(true);
    expect(() => createAdnlKeyPair(Buffer.alloc(31))).toThrow(/32 bytes/);
  });

  it('lets client and server agree on both session streams', () => {
    const server = createAdnlKeyPair();
    const client = createClientHandshake(server.publicKey);
    const serverSide = acceptHandshake(client.packet, server);
    const up = Buffer.from('client to server, across several update() calls');
    const upCipher = Buffer.concat([client.encrypt.update(up.subarray(0, 7)), client.encrypt.update(up.subarray(7))]);
    expect(serverSide.decrypt.update(upCipher).equals(up)).toBe(true);
    const down = Buffer.from('server to client');
    expect(client.decrypt.update(serverSide.encrypt.update(down)).equals(down)).toBe(true);
  });

  it('rejects handshakes for another key, with a bad checksum, or of the wrong size', () => {
    const server = createAdnlKeyPair();
    expect(() => acceptHandshake(createClientHandshake(createAdnlKeyPair().publicKey).packet, server)).toThrow(/another key id/);
    const tampered = createClientHandshake(server.publicKey).packet;
    tampered[255] ^= 1;
    expect(() => acceptHandshake(tampered, server)).toThrow(/checksum/);
    expect(() => acceptHandshake(Buffer.alloc(255), server)).toThrow(/256 bytes/);
  });
});
