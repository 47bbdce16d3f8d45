/**
 * The OpenAPI document and the docs routes, built from the method table.
 */
export * from './localnetPaths';
export * from './openapi';
export * from './params';
export * from './results';
export * from './router';
