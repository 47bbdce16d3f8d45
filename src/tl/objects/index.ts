/**
 * lite_api.tl data types (everything that is not a function): TypeScript shapes and codecs, one
 * module per family. Shapes follow ton-lite-client's generated schema: camelCase fields, `long` as
 * a decimal string, `int256`/`bytes` as Buffer, optional fields as `T | null`, `true` flags as
 * `boolean | null`.
 */
export * from './blockIds';
export * from './serverInfo';
export * from './accounts';
export * from './transactions';
export * from './blocks';
export * from './proofs';
export * from './shards';
export * from './config';
