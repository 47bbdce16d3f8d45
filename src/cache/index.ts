/**
 * The response cache: answers by (method, parameters, block), the key, the per-method policy.
 */
export * from './key';
export * from './policy';
export * from './responseCache';
