/**
 * Parsing and bounding what a client sends: address and hash forms, quoted numbers, the parameter schema types, the size bounds of stacks and BoCs.
 */
export * from './address';
export * from './bounds';
export * from './hash';
export * from './quote';
export * from './schema';
