import type { ClientBase } from 'pg';

/**
 * The off-chain metadata cache (migration 5's `metadata_cache`): one row per URI fetched with
 * `--metadata-fetch`, the JSON object it gave or the reason it failed. Written by the fetcher
 * (src/indexer/metadataFetch.ts) outside the block pipeline; read by the v3 metadata answers.
 */
export interface MetadataCacheRow {
  uri: string;
  valid: boolean;
  /** The document (a JSON object) when valid. */
  content: Record<string, unknown> | null;
  error: string | null;
  /** Unix seconds. */
  fetched_at: number;
  expires_at: number;
}

/** Inserts or replaces the row of a URI. */
export async function writeMetadataCache(client: Pick<ClientBase, 'query'>, row: MetadataCacheRow): Promise<void> {
  await client.query(
    `insert into metadata_cache (uri, valid, content, error, fetched_at, expires_at) values ($1, $2, $3::jsonb, $4, $5, $6)
     on conflict (uri) do update set valid = excluded.valid, content = excluded.content, error = excluded.error,
       fetched_at = excluded.fetched_at, expires_at = excluded.expires_at`,
    [row.uri, row.valid, row.content === null ? null : JSON.stringify(row.content), row.error, row.fetched_at, row.expires_at],
  );
}
