/**
 * toncenter's v3 API. Today: v3 answers reshaped from v2 results (fromV2, stack); the indexed
 * v3 layer (params, queries, models, route records over src/indexdb) is built here.
 */
export * from './fromV2';
export * from './stack';
