import { beginCell, Dictionary } from '@ton/core';
import type { ChainConfig } from '../chain';

/**
 * The config token detection's get-methods run with: the block's proven config without the
 * parameters that only validators and transactions read. A deliberate difference from a node's
 * runGetMethod (which hands the whole config), for detection only: the API's runGetMethod and
 * the emulation routes keep the whole config.
 *
 * Why: @ton/sandbox 0.41's `run_get_method` takes the config as base64 text at every run, and
 * the emulator decodes that BoC (hashing every cell) and unpacks it each time. A mainnet-like
 * config (@ton/sandbox's default) is ~150 KB of text, ~97 % of it the validator sets 32, 34 and
 * 36 (~31 KB each) and the suspended addresses of 44 (~6 KB); without them ~5 KB. One TVM thread
 * ran the jetton wallet's `get_wallet_data` in 7.5-8 ms with the whole config and 1.8-2.1 ms
 * without them (27 November). The local chain's config is ~15 KB (its genesis already drops the
 * foreign validator sets; it keeps 44 and a one-validator 34): there the cut takes 10-30 % off a
 * detection get-method's TVM time (docs/benchmarks.md, the jetton ingest).
 *
 * What a get-method run reads of the config (ton-blockchain/ton, emulator/emulator-extern.cpp
 * `tvm_emulator_set_c7`, crypto/block/mc-config.cpp `Config::unpack` and
 * `get_unpacked_config_tuple`, crypto/smc-envelope/SmartContract.cpp `prepare_vm_c7` and
 * `run_smartcont`), all kept: 8 (the global version: the TVM's behaviour and c7's layout); 12
 * (workchains) and 31 (special accounts), which unpacking the config reads (absent, they read as
 * none, and no get-method run shows them); 18, 19, 20, 21,
 * 24, 25 and 43, c7's unpacked config tuple (storage, gas and forward prices, the global id, the
 * size limits GETGASFEE, GETSTORAGEFEE, GETFORWARDFEE and GLOBALID read); 43 again for the VM's
 * data depth and library loads; 45 for c7's precompiled gas. Nothing there reads 32-37, 39 or 44
 * (the emulator's transactions read 44, the validators 32-37 and 39).
 *
 * What differs from a run with the whole config: CONFIGROOT hands this dictionary (another hash)
 * and CONFIGPARAM/CONFIGOPTPARAM of a dropped parameter answer "absent". A contract whose
 * detection get-method reads the validator sets or the suspended list would answer otherwise
 * than on a node; the standard interfaces' get-methods (TEP-74 jettons, TEP-62 NFTs, DNS,
 * multisig v2, vesting) read none of them (test/index/detectionConfig.test.ts runs them with
 * both configs and compares).
 */

/** The parameters left out: validator sets (32-37), validators' signed temporary keys (39), suspended addresses (44). */
export const DETECTION_DROPPED_PARAMS: ReadonlySet<number> = new Set([32, 33, 34, 35, 36, 37, 39, 44]);

/** Each proven config's detection config, made once (a config serves many blocks: ./blockConfig.ts). */
const made = new WeakMap<ChainConfig, ChainConfig>();

/** `config` without DETECTION_DROPPED_PARAMS, for detection's get-methods (the same object for the same config). */
export function detectionConfig(config: ChainConfig): ChainConfig {
  const known = made.get(config);
  if (known) return known;
  const params = Dictionary.empty(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
  let dropped = false;
  for (const id of config.params.keys()) {
    if (DETECTION_DROPPED_PARAMS.has(id)) dropped = true;
    else params.set(id, config.params.get(id)!);
  }
  let trimmed = config;
  if (dropped) {
    const root = beginCell().storeDictDirect(params).endCell();
    trimmed = { root, base64: root.toBoc().toString('base64'), params, globalVersion: config.globalVersion };
  }
  made.set(config, trimmed);
  return trimmed;
}
