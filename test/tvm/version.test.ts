import { beginCell, Cell } from '@ton/core';
import { defaultConfig, setGlobalVersion } from '@ton/sandbox';
import { checkGlobalVersion, createEmulator, EMULATOR_GLOBAL_VERSION, TvmPool, TvmVersionError } from '../../src/tvm';
import { getMethodTask } from '../hostile/tvmSupport';
import { httpStatusOf } from '../../src/httpErrors';

/**
 * The TVM version the emulator runs: the config's global version decides which instructions
 * exist (BTOS is version 12's), and a network newer than the emulator is refused by name.
 */

/** NEWC, BTOS (global version 12), SBITS: pushes 0 where BTOS exists, exit 6 where it does not. */
export const BTOS_CODE = beginCell().storeUint(0xc8, 8).storeUint(0xcf50, 16).storeUint(0xd749, 16).endCell();

function configAt(version: number): string {
  return setGlobalVersion(Cell.fromBase64(defaultConfig), version).toBoc().toString('base64');
}

describe('TVM global version', () => {
  let pool: TvmPool;

  beforeAll(() => {
    pool = new TvmPool({ workers: 1, newerNetwork: 'refuse' });
  });

  afterAll(async () => {
    await pool.close();
  });

  test('the emulator is the build the version constant was read from (TON f801e1c, SUPPORTED_VERSION 13)', async () => {
    const vm = await createEmulator();
    expect(vm.getVersion().commitHash).toBe('f801e1c1a4ddb5abf41033f51a7c74ab72dfdc07');
    expect(EMULATOR_GLOBAL_VERSION).toBe(13);
  });

  test('an instruction of version 12 runs under a version 12 config and is an invalid opcode under 11', async () => {
    const deadline = Date.now() + 30_000;
    const v12 = await pool.getMethod({ ...getMethodTask(BTOS_CODE, [], { config: configAt(12) }) }, deadline);
    expect(v12.exitCode).toBe(0);
    const v13 = await pool.getMethod({ ...getMethodTask(BTOS_CODE, [], { config: configAt(13) }) }, deadline);
    expect(v13.exitCode).toBe(0);
    const v11 = await pool.getMethod({ ...getMethodTask(BTOS_CODE, [], { config: configAt(11) }) }, deadline);
    expect(v11.exitCode).toBe(6);
  }, 60_000);

  test('a network newer than the emulator: an error naming both versions, unless told to run', () => {
    expect(() => checkGlobalVersion(13, 'refuse')).not.toThrow();
    expect(() => checkGlobalVersion(14, 'run')).not.toThrow();
    let error: unknown;
    try {
      checkGlobalVersion(14, 'refuse');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(TvmVersionError);
    expect(httpStatusOf(error as TvmVersionError)).toBe(501);
    expect((error as Error).message).toMatch(/global version 14; the emulator implements versions up to 13/);
    expect(() => pool.admitGlobalVersion(14)).toThrow(TvmVersionError);
    expect(() => new TvmPool({ workers: 1, newerNetwork: 'run' }).admitGlobalVersion(14)).not.toThrow();
    // The default runs: refusing would stop every get-method on mainnet (version 14) today.
    expect(new TvmPool({ workers: 1 }).newerNetwork).toBe('run');
  });
});
