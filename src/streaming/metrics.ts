import { Counter, Gauge, Histogram } from 'prom-client';
import { metricsRegistry } from '../metrics';

/** The streaming API's Prometheus metrics (labels from fixed sets only). */
export const streamingMetrics = {
  connections: new Gauge({
    name: 'ton_bridge_streaming_connections',
    help: 'Open streaming connections by transport (sse, ws)',
    labelNames: ['transport'] as const,
    registers: [metricsRegistry],
  }),
  subscriptions: new Gauge({
    name: 'ton_bridge_streaming_subscriptions',
    help: 'Streaming connections with a non-empty subscription',
    registers: [metricsRegistry],
  }),
  events: new Counter({
    name: 'ton_bridge_streaming_events_sent_total',
    help: 'Events written to streaming clients by type and mode (live, replay)',
    labelNames: ['type', 'mode'] as const,
    registers: [metricsRegistry],
  }),
  drops: new Counter({
    name: 'ton_bridge_streaming_drops_total',
    help: 'Streaming connections closed by the server by reason (slow_consumer, shutdown) and refusals (connection_limit, address_limit, bad_request, resume)',
    labelNames: ['reason'] as const,
    registers: [metricsRegistry],
  }),
  lag: new Histogram({
    name: 'ton_bridge_streaming_delivery_lag_seconds',
    help: 'From the commit of a masterchain block to the write of its live event to a client',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1, 2.5, 5],
    registers: [metricsRegistry],
  }),
  blocks: new Counter({
    name: 'ton_bridge_streaming_blocks_total',
    help: 'Masterchain blocks turned into events, by outcome (published, failed)',
    labelNames: ['outcome'] as const,
    registers: [metricsRegistry],
  }),
};
