/**
 * The HTTP layer: Express routes (REST, JSON-RPC, v3, local-chain controls, health), the fast path, the services they are given.
 */
export * from './edge';
export * from './execute';
export * from './fastPath';
export * from './health';
export * from './http';
export * from './jsonRpc';
export * from './jsonRpcAliases';
export * from './localnet';
export * from './rest';
export * from './services';
export * from './v3Pipeline';
export * from './v3Routes';
