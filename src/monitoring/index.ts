/**
 * Observers at the top: HTTP request metrics, the pool's gauges, the metrics endpoint.
 */
export * from './http';
export * from './pool';
export * from './server';
