import { keyPairFromSeed, sign, signVerify } from '@ton/crypto';
import { createHash } from 'crypto';
import { LocalValidator, ed25519FromSeed } from '../../src/localnet/ledger/validator';
import { treasuryOf } from '../../src/localnet/ledger/faucet';

/** The local chain derives ed25519 keys with node:crypto; they must be the keys tweetnacl (@ton/crypto) derives. */

const seeds = Array.from({ length: 32 }, (_, i) => createHash('sha256').update(`seed ${i}`).digest());

test('ed25519FromSeed gives the public and 64-byte secret keys @ton/crypto gives for the same seed', () => {
  for (const seed of seeds) {
    const native = ed25519FromSeed(seed);
    const reference = keyPairFromSeed(seed);
    expect(native.publicKey.toString('hex')).toBe(reference.publicKey.toString('hex'));
    expect(native.secretKey.toString('hex')).toBe(reference.secretKey.toString('hex'));
  }
});

test('the validator and the treasury sign with keys that verify under their published public keys', () => {
  const seed = seeds[0]!;
  const validator = new LocalValidator(seed);
  expect(validator.publicKey.equals(keyPairFromSeed(seed).publicKey)).toBe(true);

  const treasury = treasuryOf(seed);
  const message = Buffer.from('treasury transfer');
  // The treasury's secret key is used by @ton/crypto's sign (wallet transfers): it must be tweetnacl's layout.
  const signature = sign(message, treasury.keyPair.secretKey);
  expect(signVerify(message, signature, treasury.keyPair.publicKey)).toBe(true);
});

test('ed25519FromSeed refuses a seed that is not 32 bytes', () => {
  expect(() => ed25519FromSeed(Buffer.alloc(31))).toThrow('ed25519 seed must be 32 bytes');
});
