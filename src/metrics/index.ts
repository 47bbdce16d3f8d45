/**
 * The Prometheus registry: every metric the process exports, defined once. A leaf: observers (src/monitoring) and the layers that count import it.
 */
export * from './registry';
export * from './indexMetrics';
