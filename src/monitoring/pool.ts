import type { LitePool, ServerStatus, ProbeEvent } from '../liteclient';
import { liteServerErrors, liteServerLag, liteServerProbeDuration, liteServerSeqno, liteServerState, liteServerUp } from '../metrics';

const STATES: readonly ServerStatus['state'][] = ['starting', 'up', 'down', 'lagging', 'unverified'];

/** The pools whose state the gauges show (one in a server process; tests may run a few in turn). */
const observed = new Set<LitePool>();

function labelsOf(status: Pick<ServerStatus, 'index' | 'host' | 'port'>): { server: string; address: string } {
  return { server: String(status.index), address: `${status.host}:${status.port}` };
}

/** Sets the state gauges from the pools' current status; called before every scrape. */
export function refreshPoolGauges(): void {
  for (const pool of observed) {
    for (const status of pool.status()) {
      const labels = labelsOf(status);
      liteServerUp.set(labels, status.state === 'up' && status.connected ? 1 : 0);
      for (const state of STATES) liteServerState.set({ ...labels, state }, status.state === state ? 1 : 0);
      if (status.lag !== null) liteServerLag.set(labels, status.lag);
      if (status.seqno !== null) liteServerSeqno.set(labels, status.seqno);
    }
  }
}

/** Records the pool's probes and failures; returns the function that stops it. */
export function observePool(pool: LitePool): () => void {
  const addressOf = (index: number) => {
    const status = pool.status()[index];
    return status ? labelsOf(status) : { server: String(index), address: 'unknown' };
  };
  const onProbe = (event: ProbeEvent) => {
    const labels = addressOf(event.server);
    liteServerProbeDuration.observe(labels, event.latencyMs / 1000);
    if (!event.ok) liteServerErrors.inc({ ...labels, source: 'probe' });
  };
  const onQueryFailure = (index: number) => liteServerErrors.inc({ ...addressOf(index), source: 'query' });
  pool.on('probe', onProbe);
  pool.on('queryFailure', onQueryFailure);
  observed.add(pool);
  return () => {
    pool.off('probe', onProbe);
    pool.off('queryFailure', onQueryFailure);
    observed.delete(pool);
  };
}
