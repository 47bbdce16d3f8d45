import { BlockIdExtInput, hashToBase64, toBlockIdExt, TonBlockIdExtJson, zeroStateToBlockIdExt, ZeroStateIdInput } from './blockId';

/** getMasterchainInfo: `blocks.masterchainInfo` (keys in tonlib's order: last, state_root_hash, init). */

export interface MasterchainInfoJson {
  '@type': 'blocks.masterchainInfo';
  last: TonBlockIdExtJson;
  state_root_hash: string;
  /** The zero state, printed as a block id with shard "0" and seqno 0. */
  init: TonBlockIdExtJson;
}

export interface MasterchainInfoInput {
  last: BlockIdExtInput;
  stateRootHash: Buffer | bigint;
  init: ZeroStateIdInput;
}

export function toMasterchainInfo(input: MasterchainInfoInput): MasterchainInfoJson {
  return {
    '@type': 'blocks.masterchainInfo',
    last: toBlockIdExt(input.last),
    state_root_hash: hashToBase64(input.stateRootHash),
    init: zeroStateToBlockIdExt(input.init),
  };
}
