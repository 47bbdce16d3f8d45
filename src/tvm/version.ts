import { ApiError } from '../errors';

/**
 * The TVM the emulator implements. Every behaviour switch of TON's block and VM code reads the
 * config's global version (ConfigParam 8) as `version >= N`, so an emulator runs a network whose
 * version it knows exactly as the network does, and one newer than it as the newest it knows:
 * silently different wherever the newer version changed something. Such a config is refused by
 * default (docs/emulate.md, "TVM version").
 *
 * @ton/sandbox 0.41.0 (the newest on npm) carries TON's emulator at commit f801e1c of 2025-12-05,
 * whose common/global-version.h has SUPPORTED_VERSION = 13; version 12 added the newest
 * instructions (BTOS, HASHBU, LDSTDADDR...), version 13 only fixes. Mainnet enabled version 13 on
 * 2026-04-03 and version 14 on 2026-06-05 (TON's doc/GlobalVersions.md). test/tvm/version.test.ts
 * pins the emulator's commit, so a sandbox upgrade makes this number be looked at again.
 */
export const EMULATOR_GLOBAL_VERSION = 13;
export const EMULATOR_BUILD = 'TON f801e1c (2025-12-05) in @ton/sandbox 0.41.0';

/** What runs when a network's config is newer than the emulator: refuse (default) or run anyway. */
export type NewerNetworkPolicy = 'refuse' | 'run';

/** The network's config asks for a TVM newer than the emulator implements. */
export class TvmVersionError extends ApiError {
  constructor(
    readonly networkVersion: number,
    readonly emulatorVersion: number,
  ) {
    super(
      'notImplemented',
      `the network runs TVM global version ${networkVersion}; the emulator implements versions up to ${emulatorVersion} ` +
        `(${EMULATOR_BUILD}), so its results could differ from the network's: refused (--tvm-newer-network run runs it anyway)`,
    );
  }
}

/** Fails when `networkVersion` is above what the emulator implements, unless the policy says run. */
export function checkGlobalVersion(networkVersion: number, policy: NewerNetworkPolicy, emulatorVersion = EMULATOR_GLOBAL_VERSION): void {
  if (networkVersion > emulatorVersion && policy === 'refuse') throw new TvmVersionError(networkVersion, emulatorVersion);
}
