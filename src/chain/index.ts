/**
 * The chain-read layer: every piece of TON knowledge the handlers share, as functions of the form
 * `(session, block, args) -> value`. Each read names the masterchain block it is made at, given
 * explicitly or as the request's head (`session.head()`); all lite queries go through the
 * session with the src/tl codecs.
 */
export * from './blockRefs';
export * from './blocks';
export * from './accounts';
export * from './transactions';
export * from './blockTransactions';
export * from './locate';
export * from './config';
export * from './libraries';
export * from './getMethods';
export * from './fees';
export * from './dns';
export * from './tokens';
