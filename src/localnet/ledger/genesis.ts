/** Genesis: the local configuration, both zerostates, and the messages that deploy genesis accounts. */
import { Address, Cell, loadMessage, Message, StateInit } from '@ton/core';
import { defaultConfig } from '@ton/sandbox';
import { serializeBoc } from '../../cells';
import { SystemAccount, systemAccounts } from '../contracts/systemAccounts';
import { buildShardHashes, buildState, emptyAccounts, emptyPrevBlocks, sha256, shardAccountBalance, shardDescrFor } from './builder';
import { buildLocalConfig, configParam, LocalConfig, withBasechainZeroState } from './config';
import { BASECHAIN, FULL_SHARD, MASTERCHAIN } from './ids';
import { mcStateExtra } from './sealing';
import { ZeroState } from './store';
import { LocalValidator } from './validator';
import { InvalidExternalMessageError } from './errors';
import type { SandboxEngine } from './sandboxAdapter';

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
  /** The config contract and the elector, held by the masterchain zerostate. */
  systemAccounts: SystemAccount[];
}

const GENESIS_SOURCE = new Address(MASTERCHAIN, Buffer.alloc(32));

/** Builds the configuration and both (empty) zerostates at unix time `now`. */
export function buildGenesis(validator: LocalValidator, now: number): Genesis {
  let config = buildLocalConfig(Cell.fromBase64(defaultConfig), validator, now);
  const basechainState = buildState({
    globalId: config.globalId,
    workchain: BASECHAIN,
    shard: FULL_SHARD,
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

  // One basechain zerostate (the one p12 names); several shards split off it in block 1.
  const shardHashes = buildShardHashes([
    { shard: FULL_SHARD, descr: shardDescrFor(basechain.id, { startLt: 0n, endLt: 0n, genUtime: now, minRefMcSeqno: 0 }, 0) },
  ]);
  const p1 = configParam(config.root, 1);
  const p34 = configParam(config.root, 34);
  if (!p1 || !p34) throw new Error('configuration lacks p1 or p34');
  const system = systemAccounts({
    configAddr: config.configAddr,
    electorAddr: p1.beginParse().loadBuffer(32),
    configRoot: config.root,
    validatorPublicKey: validator.publicKey,
    activeValidatorSet: p34,
    now,
  });
  let mcAccounts = emptyAccounts();
  for (const acc of system) {
    const balance = shardAccountBalance(acc.shardAccount);
    if (!balance) throw new Error('system account without a balance');
    mcAccounts = mcAccounts.set(BigInt('0x' + acc.address.hash.toString('hex')), acc.shardAccount, balance);
  }
  const mcState = buildState({
    globalId: config.globalId,
    workchain: MASTERCHAIN,
    shard: FULL_SHARD,
    seqno: 0,
    genUtime: now,
    genLt: 0n,
    minRefMcSeqno: 0,
    accounts: mcAccounts,
    libraries: null,
    masterRef: null,
    mcExtra: mcStateExtra(config, validator, emptyPrevBlocks(), shardHashes, true, null),
  });
  return { config, masterchain: zeroStateOf(MASTERCHAIN, mcState), basechain, systemAccounts: system };
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

/** The fee of each entry's deploying message, measured by one dry run per code. */
export async function deployFees(engine: SandboxEngine, entries: readonly GenesisAccount[]): Promise<(entry: GenesisAccount) => bigint> {
  const codeKey = (entry: GenesisAccount): string => entry.init.code?.hash().toString('hex') ?? '';
  const feeByCode = new Map<string, bigint>();
  for (const entry of entries) {
    if (feeByCode.has(codeKey(entry))) continue;
    feeByCode.set(codeKey(entry), await engine.dryRunInternalFees(genesisMessage(entry, entry.balance)));
  }
  return (entry) => feeByCode.get(codeKey(entry)) ?? 0n;
}

/** The one root of an inbound external message BoC; InvalidExternalMessageError otherwise. */
export function parseInboundExternal(boc: Buffer): Cell {
  try {
    const roots = Cell.fromBoc(boc);
    if (roots.length !== 1) throw new Error('expected exactly one root');
    const info = loadMessage(roots[0].beginParse()).info;
    if (info.type !== 'external-in') throw new Error('not an inbound external message');
    return roots[0];
  } catch (err) {
    throw new InvalidExternalMessageError(err instanceof Error ? err.message : String(err));
  }
}
