import path from 'node:path';
import type { AppConfig } from '../config';

/**
 * Whether the index runs: `--index`, else on with a database URL or with the embedded chain (its
 * PGlite store opens in the background, so the start is not held: docs/index.md, "Defaults").
 */
export function indexEnabled(config: AppConfig, embeddedChain: boolean): boolean {
  if (config.index !== undefined) return config.index === 'on';
  return config.databaseUrl !== undefined || embeddedChain;
}

/** The embedded database's directory: --index-dir, else `<state file>.index` beside --state-file, else none (memory). */
export function indexDirFor(config: AppConfig): string | null {
  if (config.indexDir) return config.indexDir;
  if (config.stateFile) return `${path.resolve(config.stateFile)}.index`;
  return null;
}
