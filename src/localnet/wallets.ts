import { Address } from '@ton/core';
import { KeyPair, mnemonicToPrivateKey, mnemonicValidate } from '@ton/crypto';
// The wallet modules alone: @ton/ton's index also loads its HTTP clients (axios and more, ~0.1 s at start).
import { WalletContractV4 } from '@ton/ton/dist/wallets/WalletContractV4';
import { WalletContractV5R1 } from '@ton/ton/dist/wallets/WalletContractV5R1';
import { GenesisAccount, LocalChain } from './ledger/LocalChain';

/**
 * Default mnemonic of the funded local wallets. Generated once for this project and published on
 * purpose: every local chain started without a mnemonic funds the wallets of these 24 words.
 * Never send real funds to them.
 */
export const DEFAULT_LOCALNET_MNEMONIC: readonly string[] = Object.freeze([
  'awkward',
  'remind',
  'same',
  'decorate',
  'degree',
  'reopen',
  'anxiety',
  'pool',
  'throw',
  'cook',
  'toddler',
  'vivid',
  'chief',
  'dial',
  'airport',
  'cycle',
  'saddle',
  'disagree',
  'mercy',
  'grape',
  'salute',
  'excite',
  'garbage',
  'opera',
]);

/** The standard v4r2 subwallet id (wallet 0); wallet i uses this plus i. */
export const V4R2_BASE_SUBWALLET_ID = 698983191;
/** Balance of every funded wallet: 1 000 000 TON. */
export const LOCALNET_WALLET_BALANCE = 1_000_000_000_000_000n;

export type LocalnetWalletVersion = 'v4r2' | 'v5r1';

export interface LocalnetWallet {
  version: LocalnetWalletVersion;
  index: number;
  address: Address;
  /** v4r2: the subwallet id; v5r1: the serialized wallet id as TonClient/tonweb compute it. */
  walletId: number;
  contract: WalletContractV4 | WalletContractV5R1;
}

export interface LocalnetWallets {
  mnemonic: string[];
  keyPair: KeyPair;
  wallets: LocalnetWallet[];
}

/** The funded wallets' mnemonic and the one key pair all of them use. */
export interface LocalnetKey {
  mnemonic: string[];
  keyPair: KeyPair;
}

/**
 * Checks the mnemonic and derives its key pair. The derivation is 100 000 rounds of PBKDF2, run on
 * libuv's thread pool: a start begins it before building the chain, which it does meanwhile.
 */
export async function deriveLocalnetKey(mnemonic: readonly string[]): Promise<LocalnetKey> {
  const words = [...mnemonic];
  if (!(await mnemonicValidate(words))) throw new Error('invalid localnet mnemonic');
  return { mnemonic: words, keyPair: await mnemonicToPrivateKey(words) };
}

/**
 * The funded wallets of one key: `count` v4r2 wallets (subwallet 698983191 + i) and `count` v5r1
 * wallets (subwalletNumber i, networkGlobalId = the chain's global_id). Wallet 0 of each version
 * is the very wallet TonClient and tonweb derive from the mnemonic.
 */
export function localnetWalletsOf(key: LocalnetKey, count: number, globalId: number): LocalnetWallets {
  const { keyPair } = key;
  const wallets: LocalnetWallet[] = [];
  for (let i = 0; i < count; i++) {
    const contract = WalletContractV4.create({ workchain: 0, publicKey: keyPair.publicKey, walletId: V4R2_BASE_SUBWALLET_ID + i });
    wallets.push({ version: 'v4r2', index: i, address: contract.address, walletId: contract.walletId, contract });
  }
  for (let i = 0; i < count; i++) {
    const contract = WalletContractV5R1.create({
      publicKey: keyPair.publicKey,
      walletId: { networkGlobalId: globalId, context: { walletVersion: 'v5r1', workchain: 0, subwalletNumber: i } },
    });
    const serializedId = contract.init.data
      .beginParse()
      .skip(1 + 32)
      .loadUint(32);
    wallets.push({ version: 'v5r1', index: i, address: contract.address, walletId: serializedId, contract });
  }
  return { mnemonic: key.mnemonic, keyPair, wallets };
}

/** The funded wallets derived from one mnemonic (deriveLocalnetKey, then localnetWalletsOf). */
export async function deriveLocalnetWallets(mnemonic: readonly string[], count: number, globalId: number): Promise<LocalnetWallets> {
  return localnetWalletsOf(await deriveLocalnetKey(mnemonic), count, globalId);
}

/** Deploys the wallets with 1 000 000 TON each, and `others` with theirs; they land in the chain's next block. */
export async function fundLocalnetWallets(
  chain: LocalChain,
  wallets: readonly LocalnetWallet[],
  others: readonly GenesisAccount[] = [],
): Promise<void> {
  const genesis: GenesisAccount[] = wallets.map((w) => ({
    address: w.address,
    init: w.contract.init,
    balance: LOCALNET_WALLET_BALANCE,
  }));
  await chain.deployGenesis([...genesis, ...others]);
}
