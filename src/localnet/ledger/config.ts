import { beginCell, Cell, Dictionary } from '@ton/core';
import { GlobalVersion, loadGlobalVersion, storeValidatorDescr, storeValidatorSet } from '../../tlb';
import { PersistentDict } from '../../cells';
import { LocalValidator } from './validator';

/** The chain's configuration (`Hashmap 32 ^Cell`) with the fields blocks need. */
export interface LocalConfig {
  /** Root edge cell of the configuration dictionary. */
  root: Cell;
  configAddr: Buffer;
  globalId: number;
  globalVersion: GlobalVersion;
}

/** Parameters naming mainnet's validators, who do not sign this chain. */
const FOREIGN_VALIDATOR_PARAMS = [32, 33, 35, 36, 37];

const configKeys = Dictionary.Keys.Int(32);
const configValues = Dictionary.Values.Cell();

export function configDict(root: Cell): Dictionary<number, Cell> {
  return Dictionary.loadDirect(configKeys, configValues, root);
}

export function configParam(root: Cell, id: number): Cell | undefined {
  return configDict(root).get(id);
}

/**
 * Sandbox's default (mainnet) configuration with p34 replaced by a one-validator set owned by
 * the chain, so that masterchain blocks can be signed by a key listed in the config.
 */
export function buildLocalConfig(base: Cell, validator: LocalValidator, utimeSince: number): LocalConfig {
  const dict = configDict(base);
  for (const p of FOREIGN_VALIDATOR_PARAMS) dict.delete(p);
  const list = PersistentDict.empty({
    keyBits: 16,
    storeValue: (cell: Cell, b) => {
      b.storeSlice(cell.beginParse());
    },
  }).set(
    0n,
    beginCell()
      .store(storeValidatorDescr({ publicKey: validator.publicKey, weight: validator.weight, adnlAddr: null }))
      .endCell(),
    null,
  );
  const p34 = beginCell()
    .store(
      storeValidatorSet({
        utimeSince,
        utimeUntil: 0xffffffff,
        total: 1,
        main: 1,
        totalWeight: validator.weight,
        list: { root: list.rootCell() },
      }),
    )
    .endCell();
  dict.set(34, p34);
  return fromDict(dict);
}

/**
 * Points p12 (workchain descriptions) at this chain's basechain zerostate. WorkchainDescr
 * (`workchain#a6`/`workchain_v2#a7`) keeps zerostate_root_hash at bit 80 and the file hash
 * right after it.
 */
export function withBasechainZeroState(config: LocalConfig, rootHash: Buffer, fileHash: Buffer): LocalConfig {
  const dict = configDict(config.root);
  const p12 = dict.get(12);
  if (!p12) return config;
  const rawValue = {
    serialize: (src: Cell, b: import('@ton/core').Builder) => {
      b.storeSlice(src.beginParse());
    },
    parse: (s: import('@ton/core').Slice) => s.asCell(),
  };
  const workchains = p12.beginParse().loadDict(Dictionary.Keys.Int(32), rawValue);
  const descr = workchains.get(0);
  if (!descr) return config;
  const s = descr.beginParse();
  const head = s.loadBits(80);
  s.skip(512);
  const patched = beginCell().storeBits(head).storeBuffer(rootHash, 32).storeBuffer(fileHash, 32).storeSlice(s).endCell();
  workchains.set(0, patched);
  dict.set(12, beginCell().storeDict(workchains).endCell());
  return fromDict(dict);
}

/** The LocalConfig of a configuration dictionary root (restoring a snapshot). */
export function localConfigFromRoot(root: Cell): LocalConfig {
  return fromDict(configDict(root));
}

function fromDict(dict: Dictionary<number, Cell>): LocalConfig {
  const root = beginCell().storeDictDirect(dict).endCell();
  const p0 = dict.get(0);
  const p19 = dict.get(19);
  const p8 = dict.get(8);
  if (!p0 || !p19) throw new Error('configuration lacks p0 or p19');
  return {
    root,
    configAddr: p0.beginParse().loadBuffer(32),
    globalId: p19.beginParse().loadInt(32),
    globalVersion: p8 ? loadGlobalVersion(p8.beginParse()) : { version: 0, capabilities: 0n },
  };
}
