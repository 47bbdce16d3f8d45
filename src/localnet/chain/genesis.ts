/** Genesis: the local configuration, both zerostates, and the messages that deploy genesis accounts. */
import { Address, Cell, Message, StateInit } from '@ton/core';
import { defaultConfig } from '@ton/sandbox';
import { serializeBoc } from '../cells';
import { buildShardHashes, buildState, emptyAccounts, emptyPrevBlocks, sha256, shardDescrFor } from './builder';
import { buildLocalConfig, LocalConfig, withBasechainZeroState } from './config';
import { BASECHAIN, FULL_SHARD, MASTERCHAIN } from './ids';
import { mcStateExtra } from './sealing';
import { ZeroState } from './store';
import { LocalValidator } from './validator';

/** A genesis account deployed by an internal message from the zero address. */
export interface GenesisAccount {
  address: Address;
  init: StateInit;
  balance: bigint;
}

export interface Genesis {
  /** The configuration, with p12 pointing at the basechain zerostate. */
  config: LocalConfig;
  masterchain: ZeroState;
  basechain: ZeroState;
}

const GENESIS_SOURCE = new Address(MASTERCHAIN, Buffer.alloc(32));

/** Builds the configuration and both (empty) zerostates at unix time `now`. */
export function buildGenesis(validator: LocalValidator, now: number): Genesis {
  let config = buildLocalConfig(Cell.fromBase64(defaultConfig), validator, now);
  const basechainState = buildState({
    globalId: config.globalId,
    workchain: BASECHAIN,
    seqno: 0,
    genUtime: now,
    genLt: 0n,
    minRefMcSeqno: 0,
    accounts: emptyAccounts(),
    libraries: null,
    masterRef: null,
    mcExtra: null,
  });
  const basechain = zeroStateOf(BASECHAIN, basechainState);
  config = withBasechainZeroState(config, basechain.id.rootHash, basechain.id.fileHash);

  const shardHashes = buildShardHashes(shardDescrFor(basechain.id, { startLt: 0n, endLt: 0n, genUtime: now, minRefMcSeqno: 0 }, 0));
  const mcState = buildState({
    globalId: config.globalId,
    workchain: MASTERCHAIN,
    seqno: 0,
    genUtime: now,
    genLt: 0n,
    minRefMcSeqno: 0,
    accounts: emptyAccounts(),
    libraries: null,
    masterRef: null,
    mcExtra: mcStateExtra(config, validator, emptyPrevBlocks(), shardHashes, true, null),
  });
  return { config, masterchain: zeroStateOf(MASTERCHAIN, mcState), basechain };
}

export function zeroStateOf(workchain: number, state: Cell): ZeroState {
  const boc = serializeBoc([state]);
  return { id: { workchain, shard: FULL_SHARD, seqno: 0, rootHash: state.hash(), fileHash: sha256(boc) }, state, boc };
}

/** The internal message from the zero address that deploys `entry` carrying `value`. */
export function genesisMessage(entry: GenesisAccount, value: bigint): Message {
  return {
    info: {
      type: 'internal',
      ihrDisabled: true,
      bounce: false,
      bounced: false,
      src: GENESIS_SOURCE,
      dest: entry.address,
      value: { coins: value },
      ihrFee: 0n,
      forwardFee: 0n,
      createdLt: 0n,
      createdAt: 0,
    },
    init: entry.init,
    body: Cell.EMPTY,
  };
}
