/**
 * The embedded local TON chain served over the real lite-server protocol: a LocalChain
 * (sandbox-executed, with real blocks, states and proofs), an ADNL/TCP server and the lite
 * query dispatcher, plus funded wallets and the global config clients connect with.
 */
import { createHash, randomBytes } from 'crypto';
import { AdnlServer } from './adnlServer';
import { LocalnetLogger, silentLogger } from './adnlServer/logger';
import { LocalChain } from './ledger/LocalChain';
import { ensureTreasury, Faucet, Treasury, treasuryGenesisAccount, treasuryOf } from './ledger/faucet';
import { ShardCount } from './ledger/ids';
import { readSnapshotFile, writeSnapshotFileAsync } from './ledger/snapshot';
import type { GlobalConfigBlockId, Localnet, LocalnetGlobalConfig } from './localnet';
import { replayJournals } from './ledger/journal';
import { ChainPersistence } from './persistence';
import { startPeriodicSave } from './periodicSave';
import { BocNodeCache, useFastBits, useLeanCells } from '../cells';
import { savedBlockId } from './ledger/chainSnapshot';
import type { ChainSnapshot } from './ledger/LocalChain';
import { createLiteDispatcher, type LiteActivity } from './liteserver/dispatcher';
import { createLocalnetHandlers } from './liteserver/queries';
import { DEFAULT_LOCALNET_MNEMONIC, deriveLocalnetKey, fundLocalnetWallets, LocalnetWallets, localnetWalletsOf } from './wallets';

export interface StartLocalnetOptions {
  /** 24 words (array or space-separated). Default: DEFAULT_LOCALNET_MNEMONIC. */
  mnemonic?: readonly string[] | string;
  /** Funded wallets per version (v4r2 and v5r1). Default 10. */
  accounts?: number;
  /** Seal a block this often (ms); 0 only seals on sendMessage. Default 1000. */
  blockIntervalMs?: number;
  /** Basechain shards of a new chain: 1, 2, 4 or 8. Default 2. A resumed chain keeps its own. */
  shards?: number;
  /** Listen address. Default 127.0.0.1. */
  host?: string;
  /** Listen port; 0 picks a free one. Default 0. */
  port?: number;
  /**
   * Makes the keys deterministic. 32 bytes: the lite server's ed25519 seed as is (the validator
   * key is derived from it); anything else: both keys are derived from it. Default: random keys.
   */
  seed?: string | Buffer;
  /**
   * Snapshot file: when it exists the chain resumes from it (keys, blocks, accounts, wallets;
   * mnemonic, accounts and seed are then taken from the file) and from its journal
   * (`<stateFile>.journal`: every block sealed since that save, flushed before any client could
   * see it); it is written at start, on each periodic save and on stop().
   */
  stateFile?: string;
  /** With `stateFile`, also save every this many seconds (atomically); 0 only saves on stop(). Default 0. */
  saveIntervalSec?: number;
  /** Blocks a message from a client's cascade waits before it reaches another shard; 0 = one round. Default 0. */
  crossShardDelay?: number;
  /** Masterchain blocks kept with their shard blocks and states (older ones answer 651); 0 keeps all. Default 1000. */
  keepBlocks?: number;
  /** Most lite-server connections at once; more are closed on accept. Default 256. */
  maxConnections?: number;
  logger?: LocalnetLogger;
  /** Told of every lite query its server answers (the chain's thread: its quiet moments). */
  liteActivity?: LiteActivity;
  /** Gas limit of runSmcMethod get-methods. Default 1 000 000. */
  getMethodGasLimit?: bigint;
}

export async function startLocalnet(opts: StartLocalnetOptions = {}): Promise<Localnet> {
  // Sandbox and the chain read every transaction, message and account with @ton/core's BitReader:
  // byte-level reads in the chain's thread (src/cells/fastBits.ts; the same values).
  useFastBits();
  // The chain keeps every state it seals as cells (a saved chain: ~1.2 million): lean ones, about
  // half the heap of @ton/core's (src/cells/useLeanCells.ts; the same hashes and bits).
  useLeanCells();
  const logger = opts.logger ?? silentLogger;
  const seed = opts.seed === undefined ? undefined : Buffer.isBuffer(opts.seed) ? opts.seed : Buffer.from(opts.seed, 'utf8');
  const chainOptions = {
    blockIntervalMs: opts.blockIntervalMs ?? 1000,
    getMethodGasLimit: opts.getMethodGasLimit,
    ...(opts.crossShardDelay !== undefined ? { crossShardDelay: opts.crossShardDelay } : {}),
    ...(opts.keepBlocks !== undefined ? { keepBlocks: opts.keepBlocks } : {}),
    logger,
  };
  const saved = opts.stateFile ? readSnapshotFile(opts.stateFile) : null;
  const savedHeadSeqno = saved ? headSeqnoOf(saved.chain) : 0;
  // Blocks sealed after the last save, journaled: the chain resumes with every one of them.
  const replayed = saved && opts.stateFile ? replayJournals(opts.stateFile, saved.chain) : null;

  // How long each step took (ms), logged with 'localnet started': what a start spends on the chain.
  const stepsMs: Record<string, number> = {};
  let stepStart = performance.now();
  const step = (name: string): void => {
    const now = performance.now();
    stepsMs[name] = Math.round(now - stepStart);
    stepStart = now;
  };

  let chain: LocalChain;
  let adnlSeed: Buffer;
  let wallets: LocalnetWallets;
  let treasury: Treasury;
  if (saved) {
    // Resume: same keys, blocks, accounts and wallets; nothing is funded again.
    const key = deriveLocalnetKey(saved.mnemonic);
    key.catch(() => undefined); // awaited below; the chain's own failure must not leave it unhandled
    chain = await LocalChain.restore(saved.chain, chainOptions);
    step('restore');
    adnlSeed = saved.adnlSeed;
    wallets = localnetWalletsOf(await key, saved.accounts, chain.globalId);
    step('wallets');
    // A chain saved before the faucet existed gets its treasury now, in a new block.
    treasury = treasuryOf(chain.validator.seed);
    await ensureTreasury(chain, treasury);
    step('treasury');
    // Messages clients were told were accepted, not yet in a block at the crash: executed again.
    const resubmitted = replayed ? await chain.resubmitExternalMessages(replayed.pendingMessages) : 0;
    if (resubmitted > 0) await chain.seal();
    logger.info(
      {
        stateFile: opts.stateFile,
        height: chain.lastMasterchainBlock().id.seqno,
        journalRounds: replayed?.rounds ?? 0,
        journalMessages: replayed?.pendingMessages.length ?? 0,
        resubmitted,
        journalsSkipped: replayed?.skipped ?? [],
        journalTornBytes: replayed?.tornBytes ?? 0,
      },
      'localnet resumed from snapshot',
    );
  } else {
    const mnemonic = typeof opts.mnemonic === 'string' ? opts.mnemonic.trim().split(/\s+/) : (opts.mnemonic ?? DEFAULT_LOCALNET_MNEMONIC);
    // The wallets' key derivation runs on the thread pool while this thread builds the chain.
    const key = deriveLocalnetKey(mnemonic);
    key.catch(() => undefined); // awaited below; the chain's own failure must not leave it unhandled
    chain = await LocalChain.create({
      ...chainOptions,
      validatorSeed: seed ? derive(seed, 'validator') : randomBytes(32),
      ...(opts.shards !== undefined ? { shards: opts.shards as ShardCount } : {}),
    });
    step('zeroStates');
    // A 32-byte seed is the lite server's ed25519 key itself (its public key is what clients pin).
    adnlSeed = seed ? (seed.length === 32 ? seed : derive(seed, 'adnl')) : randomBytes(32);
    wallets = localnetWalletsOf(await key, opts.accounts ?? 10, chain.globalId);
    treasury = treasuryOf(chain.validator.seed);
    step('wallets');
    await fundLocalnetWallets(chain, wallets.wallets, [treasuryGenesisAccount(treasury)]);
    step('funding');
    await chain.seal();
    step('block1');
  }

  // With a state file, every block from now on is journaled before anyone can see it.
  const stateFile = opts.stateFile;
  const persistence = stateFile
    ? await ChainPersistence.start({
        stateFile,
        chain,
        extras: { adnlSeed, mnemonic: wallets.mnemonic, accounts: wallets.wallets.length / 2 },
        logger,
        // The file holds the head unless the journal or this start added blocks to it.
        stateFileIsCurrent: saved !== null && (replayed?.rounds ?? 0) === 0 && chain.lastMasterchainBlock().id.seqno === savedHeadSeqno,
      })
    : null;
  step('persistence');

  const server = new AdnlServer({
    seed: adnlSeed,
    host: opts.host ?? '127.0.0.1',
    port: opts.port ?? 0,
    ...(opts.maxConnections !== undefined ? { maxConnections: opts.maxConnections } : {}),
    logger,
    onQuery: createLiteDispatcher({
      handlers: createLocalnetHandlers(chain),
      waitForMasterchainSeqno: (seqno, timeoutMs) =>
        chain.waitForMasterchainSeqno(seqno, timeoutMs).then(
          () => true,
          () => false,
        ),
      logger,
      ...(opts.liteActivity ? { activity: opts.liteActivity } : {}),
    }),
  });
  const address = await server.listen();
  chain.start();
  const globalConfig = buildGlobalConfig(chain, address.host, address.port, server.publicKey);
  step('listen');
  logger.info({ host: address.host, port: address.port, wallets: wallets.wallets.length, stepsMs }, 'localnet started');

  // Saves of one chain share most cells: each encodes only what changed since the last one.
  const bocNodes = new BocNodeCache();
  const save = async (file: string): Promise<void> => {
    const snapshot = await chain.snapshot();
    const took = await writeSnapshotFileAsync(
      file,
      { chain: snapshot, adnlSeed, mnemonic: wallets.mnemonic, accounts: wallets.wallets.length / 2 },
      bocNodes,
    );
    logger.debug({ file, height: chain.lastMasterchainBlock().id.seqno, ...took }, 'localnet saved');
  };
  const periodic =
    persistence && opts.saveIntervalSec ? startPeriodicSave(opts.saveIntervalSec * 1000, () => persistence.save(), logger) : null;
  let stopped = false;
  return {
    chain,
    server,
    host: address.host,
    port: address.port,
    publicKey: server.publicKey,
    globalConfig,
    globalConfigJson: globalConfigText(globalConfig),
    wallets,
    faucet: new Faucet(chain, treasury),
    save,
    restore: (state) => (persistence ? persistence.restore(state) : chain.restoreState(state)),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.close();
      await periodic?.stop();
      await chain.stop();
      await persistence?.stop();
    },
  };
}

/** What a developer needs to use the chain: where it listens, the mnemonic and the funded wallets. */
export function describeLocalnet(localnet: Pick<Localnet, 'host' | 'port' | 'publicKey' | 'wallets'>): string {
  const lines = [
    `Local TON chain: lite server ${localnet.host}:${localnet.port}, key ${localnet.publicKey.toString('base64')}`,
    `Mnemonic of the funded wallets (1 000 000 TON each): ${localnet.wallets.mnemonic.join(' ')}`,
  ];
  for (const wallet of localnet.wallets.wallets) {
    lines.push(
      `  ${wallet.version} #${wallet.index} ${wallet.address.toString({ testOnly: false })}  ${wallet.address.toRawString()}  wallet_id ${wallet.walletId}`,
    );
  }
  return lines.join('\n');
}

function derive(seed: Buffer, purpose: string): Buffer {
  return createHash('sha256').update(`ton-http-bridge localnet ${purpose} key\0`).update(seed).digest();
}

const SHARD_ALL = -9223372036854775808;

function buildGlobalConfig(chain: LocalChain, host: string, port: number, publicKey: Buffer): LocalnetGlobalConfig {
  const zero = chain.zeroState.id;
  const zeroState: GlobalConfigBlockId = {
    workchain: zero.workchain,
    shard: SHARD_ALL,
    seqno: 0,
    root_hash: zero.rootHash.toString('base64'),
    file_hash: zero.fileHash.toString('base64'),
  };
  return {
    '@type': 'config.global',
    dht: { '@type': 'dht.config.global', k: 6, a: 3, static_nodes: { '@type': 'dht.nodes', nodes: [] } },
    liteservers: [
      { ip: ipv4ToInt32(host === '0.0.0.0' ? '127.0.0.1' : host), port, id: { '@type': 'pub.ed25519', key: publicKey.toString('base64') } },
    ],
    validator: { '@type': 'validator.config.global', zero_state: zeroState, init_block: { ...zeroState }, hardforks: [] },
  };
}

/** JSON text of a global config with shard ids written as exact 64-bit integers. */
export function globalConfigText(config: LocalnetGlobalConfig): string {
  return JSON.stringify(config, null, 2).replace(/"shard": -9223372036854776000/g, '"shard": -9223372036854775808');
}

/** IPv4 text to the signed 32-bit integer global configs use (127.0.0.1 -> 2130706433). */
export function ipv4ToInt32(ip: string): number {
  const parts = ip.split('.').map((p) => Number(p));
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) {
    throw new Error(`not an IPv4 address: ${ip}`);
  }
  return (parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3] | 0;
}

export { LocalChain } from './ledger/LocalChain';
export type { LocalChainOptions, GenesisAccount, GetMethodRun, ChainSnapshot } from './ledger/LocalChain';
export { encodeSnapshot, decodeSnapshot, readSnapshotFile, writeSnapshotFile } from './ledger/snapshot';
export type { LocalnetSnapshot } from './ledger/snapshot';
export { DEFAULT_LOCALNET_MNEMONIC, deriveLocalnetWallets, LOCALNET_WALLET_BALANCE, V4R2_BASE_SUBWALLET_ID } from './wallets';
export type { LocalnetWallet, LocalnetWallets, LocalnetWalletVersion } from './wallets';
export { LocalnetControls } from './controls';
export type { LocalnetControlApi, FundAnswer } from './controls';
export type { GlobalConfigBlockId, Localnet, LocalnetGlobalConfig } from './localnet';
export { MAX_CHAIN_TIME } from './ledger/clock';
export { LiteProtocolError } from './liteserver/liteError';
export { ControlRefusedError } from './ledger/errors';
export { SHARD_COUNTS } from './ledger/ids';
export type { ShardCount } from './ledger/ids';

/** Seqno of the head of a saved chain (0 when it has no block). */
function headSeqnoOf(chain: ChainSnapshot): number {
  const head = chain.masterchain[chain.masterchain.length - 1];
  return head ? savedBlockId(head).seqno : 0;
}
export { LocalnetThread } from './thread/localnetThread';
