/**
 * Proof verification: lite-server answers checked against verified blocks (Merkle proofs, block links, validator signatures), and the ChainSession seam they are fetched through. Both the chain reads and the pool's head verifier import it.
 */
export * from './accountProof';
export * from './answers';
export * from './blockProof';
export * from './blockTransactionsProof';
export * from './chainSession';
export * from './checks';
export * from './shardBlockLinks';
export * from './shardProofCache';
export * from './validatorSignatures';
