/**
 * The response cache: answers by (method, parameters, block) and the key (each method's record says how it is cached).
 */
export * from './key';
export * from './responseCache';
