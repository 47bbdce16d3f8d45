import type { LiteClient } from 'ton-lite-client';
import { chainConfigAt, chainSessionOf, requiredConfigParam, type McBlock } from '../chain';

/**
 * src/chain's config reads in the LiteClient form the get-method code still calls (see
 * accountState.ts); goes away when that code moves into src/chain.
 */
export type { ChainConfig } from '../chain';

export function configAt(client: LiteClient, block: McBlock) {
  return chainConfigAt(chainSessionOf(client), block);
}

export { requiredConfigParam as configParam };
