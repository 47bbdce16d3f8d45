import fs from 'node:fs';
import { mnemonicValidate } from '@ton/crypto';
import type { Logger } from 'pino';
import { type AppConfig, ConfigError } from './config';
import { parseGlobalConfig, trustAnchorOf } from './liteclient';
import { startLocalnet, type Localnet } from './localnet';
import type { LiteServerSource } from './server';

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
  const seed = parseLocalnetKey(config.localnetKey);
  const mnemonic = await parseLocalnetMnemonic(config.mnemonic);
  return startLocalnet({
    ...(mnemonic !== undefined ? { mnemonic } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(config.stateFile !== undefined ? { stateFile: config.stateFile } : {}),
    accounts: config.accounts,
    blockIntervalMs: config.blockInterval,
    shards: config.shards,
    keepBlocks: config.keepBlocks,
    saveIntervalSec: config.saveInterval,
    maxConnections: config.localnetMaxConnections,
    host: config.localnetHost,
    port: config.localnetPort,
    logger: logger.child({ component: 'localnet' }),
  });
}

/** What a developer needs to use the chain: where it listens, the mnemonic and the funded wallets. */
export function describeLocalnet(localnet: Localnet): string {
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

export function writeGlobalConfig(localnet: Localnet, file: string): void {
  fs.writeFileSync(file, `${localnet.globalConfigJson}\n`);
}
