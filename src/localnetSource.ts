import fs from 'node:fs';
import { mnemonicValidate } from '@ton/crypto';
import type { Logger } from 'pino';
import { type AppConfig, ConfigError } from './config';
import { parseGlobalConfig, trustAnchorOf } from './liteclient';
import { describeLocalnet as describe, LocalnetThread, startLocalnet, type Localnet, type StartLocalnetOptions } from './localnet';
import type { LiteServerSource } from './server';

/** What a developer needs to use the chain: where it listens, the mnemonic and the funded wallets. */
export async function describeLocalnet(localnet: Localnet): Promise<string> {
  return describe(localnet);
}

/** `--localnet-key`: a 32-byte ed25519 seed as 64 hex digits or base64. */
export function parseLocalnetKey(text: string | undefined): Buffer | undefined {
  if (text === undefined) return undefined;
  const bytes = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (bytes.length !== 32) throw new ConfigError('--localnet-key must be a 32-byte seed in hex (64 digits) or base64');
  return bytes;
}

/** `--mnemonic`: 24 words of a TON mnemonic, checked before the chain is built so a typo is an option error. */
export async function parseLocalnetMnemonic(text: string | undefined): Promise<string[] | undefined> {
  if (text === undefined) return undefined;
  const words = text.trim().split(/\s+/);
  if (words.length !== 24 || !(await mnemonicValidate(words))) {
    const found = words.length === 24 ? '24 words that are not a TON mnemonic' : `${words.length} words`;
    throw new ConfigError(`--mnemonic must be the 24 words of a TON mnemonic, got ${found}`);
  }
  return words;
}

/** Starts the embedded chain with the local-chain flags of the config. */
export async function startConfiguredLocalnet(config: AppConfig, logger: Logger): Promise<Localnet> {
  return startLocalnet({ ...(await localnetOptions(config)), logger: logger.child({ component: 'localnet' }) });
}

/** The local-chain flags of the config as chain options (all plain data: they may go to the chain's thread). */
async function localnetOptions(config: AppConfig): Promise<Omit<StartLocalnetOptions, 'logger'>> {
  const seed = parseLocalnetKey(config.localnetKey);
  const mnemonic = await parseLocalnetMnemonic(config.mnemonic);
  return {
    ...(mnemonic !== undefined ? { mnemonic } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(config.stateFile !== undefined ? { stateFile: config.stateFile } : {}),
    accounts: config.accounts,
    blockIntervalMs: config.blockInterval,
    shards: config.shards,
    keepBlocks: config.keepBlocks,
    crossShardDelay: config.crossShardDelay,
    saveIntervalSec: config.saveInterval,
    maxConnections: config.localnetMaxConnections,
    host: config.localnetHost,
    port: config.localnetPort,
  };
}

/**
 * The local chain as the API server's lite-server source. It is marked archival: it holds all the
 * history there is (the --keep-blocks window), and no other server could answer for older blocks.
 */
export async function startLocalnetSource(config: AppConfig, logger: Logger): Promise<LiteServerSource & { localnet: Localnet }> {
  const localnet = await startConfiguredLocalnet(config, logger);
  const servers = parseGlobalConfig(localnet.globalConfig, 'local chain').map((server) => ({ ...server, archival: true }));
  // Proven like any lite server's chain: from the zero state the chain's own global config names.
  const anchor = trustAnchorOf(localnet.globalConfig, 'local chain', config.trustedBlock);
  return { localnet, servers, anchor, saveKeyBlock: false, stop: () => localnet.stop() };
}

/**
 * The same with the chain in its own worker thread (`npm start`): its execution and sealing never
 * hold the API's event loop; the controls reach it over the thread's message port.
 */
export async function startLocalnetThreadSource(config: AppConfig, logger: Logger): Promise<LiteServerSource & { description: string }> {
  const thread = await LocalnetThread.start(await localnetOptions(config), config.logLevel, logger.child({ component: 'localnet' }));
  const servers = parseGlobalConfig(thread.globalConfig, 'local chain').map((server) => ({ ...server, archival: true }));
  const anchor = trustAnchorOf(thread.globalConfig, 'local chain', config.trustedBlock);
  return { controls: thread, servers, anchor, saveKeyBlock: false, description: thread.description, stop: () => thread.stop() };
}

export function writeGlobalConfig(localnet: Localnet, file: string): void {
  fs.writeFileSync(file, `${localnet.globalConfigJson}\n`);
}
