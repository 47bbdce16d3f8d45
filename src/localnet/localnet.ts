import type { AdnlServer } from './adnlServer';
import type { Faucet } from './ledger/faucet';
import type { LocalChain } from './ledger/LocalChain';
import type { LocalnetWallets } from './wallets';

/** A running embedded chain (what startLocalnet returns) and the global config clients connect with. */

/** Official global-config shape (what tonlib, TonClient4-less lite clients and this server read). */
export interface LocalnetGlobalConfig {
  '@type': 'config.global';
  dht: { '@type': 'dht.config.global'; k: number; a: number; static_nodes: { '@type': 'dht.nodes'; nodes: never[] } };
  liteservers: { ip: number; port: number; id: { '@type': 'pub.ed25519'; key: string } }[];
  validator: {
    '@type': 'validator.config.global';
    zero_state: GlobalConfigBlockId;
    init_block: GlobalConfigBlockId;
    hardforks: never[];
  };
}

export interface GlobalConfigBlockId {
  workchain: number;
  /** Signed 64-bit shard id; -9223372036854775808 is not exact as a JS number, see `globalConfigJson`. */
  shard: number;
  seqno: number;
  root_hash: string;
  file_hash: string;
}

export interface Localnet {
  chain: LocalChain;
  server: AdnlServer;
  host: string;
  port: number;
  /** ed25519 public key of the lite server. */
  publicKey: Buffer;
  globalConfig: LocalnetGlobalConfig;
  /** The global config as JSON text with the exact shard integers. */
  globalConfigJson: string;
  wallets: LocalnetWallets;
  /** Transfers from the genesis treasury (POST /localnet/fund). */
  faucet: Faucet;
  /** Writes a snapshot of the whole chain to `file` (what `stateFile` resumes from). */
  save(file: string): Promise<void>;
  /** Closes the server, stops the block timer and, with `stateFile`, saves the chain there. */
  stop(): Promise<void>;
}
