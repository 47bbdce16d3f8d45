import type { Logger } from 'pino';
import { loadConfig } from '../../src/config';
import { createLitePool, parseGlobalConfig, trustAnchorOf, type LitePool } from '../../src/liteclient';
import type { Localnet } from '../../src/localnet';

/** A started lite pool over a local chain's lite server, archival (the index reads old blocks), health checked every 200 ms. */
export async function startLocalnetPool(net: Localnet, logger: Logger): Promise<LitePool> {
  const { config } = loadConfig(['--health-interval', '200'], {});
  const servers = parseGlobalConfig(net.globalConfig, 'local chain').map((s) => ({ ...s, archival: true }));
  const pool = createLitePool({ servers, anchor: trustAnchorOf(net.globalConfig, 'local chain', undefined) }, config, logger, false);
  await pool.start();
  return pool;
}
