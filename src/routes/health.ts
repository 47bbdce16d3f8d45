import type { Request, Response } from 'express';
import type { AppServices } from './services';

/**
 * `GET /api/v2/healthcheck`, truthful: 200 only while at least one lite server is in rotation,
 * 503 with the same body otherwise (plus the v2 error fields), so a Docker HEALTHCHECK or a load
 * balancer takes a dead instance out. Each server shows its state and, when it is out, why.
 */
export function healthcheck(services: AppServices) {
  return (_req: Request, res: Response): void => {
    const pool = services.lite;
    const liteservers = pool?.status() ?? null;
    // Without a pool (tests of chain-free methods) there is nothing to be unhealthy about.
    const healthy = liteservers === null || liteservers.some((server) => server.state === 'up' && server.connected);
    const index = services.index?.health();
    const result = {
      status: healthy ? 'ok' : 'unavailable',
      network: services.config.network,
      healthy_liteservers: liteservers?.filter((server) => server.state === 'up' && server.connected).length ?? null,
      liteservers,
      // The index does not decide v2's health (v2 never reads it); it is reported for operators.
      index: index
        ? {
            available: index.available,
            state: index.status.state,
            writer: index.status.writer,
            first_mc_seqno: index.status.firstMcSeqno,
            // --index-from on a remote network: the blocks still being filled below the first live one.
            backfill: index.status.backfill
              ? { from_mc_seqno: index.status.backfill.from, next_mc_seqno: index.status.backfill.next, until_mc_seqno: index.status.backfill.until, remaining_blocks: index.status.backfill.until - index.status.backfill.next }
              : null,
            committed_mc_seqno: index.status.committedMcSeqno,
            head_mc_seqno: index.status.headMcSeqno,
            lag_blocks: index.status.lagBlocks,
            lag_ms: index.status.lagMs,
            ...(index.reason ? { reason: index.reason } : {}),
          }
        : null,
    };
    if (healthy) {
      res.status(200).json({ ok: true, result });
      return;
    }
    const reasons = liteservers.map(
      (server) => `#${server.index} ${server.host}:${server.port} ${server.state}${server.reason ? ` (${server.reason})` : ''}`,
    );
    res.status(503).json({ ok: false, code: 503, error: `no healthy lite server: ${reasons.join(', ')}`, result });
  };
}
