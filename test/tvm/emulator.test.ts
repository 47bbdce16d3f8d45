import { Address, Cell } from '@ton/core';
import { defaultConfig } from '@ton/sandbox';
import { Executor } from '@ton/sandbox/dist/executor/Executor';
import { createEmulator, emulatorWasmBytes } from '../../src/tvm/emulator';
import { ECHO_CODE } from '../hostile/tvmSupport';

/**
 * The TVM threads' emulator made from natively decoded wasm (src/tvm/emulator.ts): the bytes
 * are sandbox's own, and the emulator runs get-methods as the one Executor.create() makes.
 */

function echo(vm: Executor, value: bigint) {
  return vm.runGetMethod({
    code: ECHO_CODE,
    data: Cell.EMPTY,
    methodId: 0,
    stack: [{ type: 'int', value }],
    config: defaultConfig,
    verbosity: 'short',
    address: new Address(0, Buffer.alloc(32, 1)),
    unixTime: 1_700_000_000,
    balance: 0n,
    randomSeed: Buffer.alloc(32),
    gasLimit: 1_000_000n,
    debugEnabled: false,
  });
}

describe('TVM emulator from natively decoded wasm', () => {
  test('the bytes are a wasm module', () => {
    const bytes = emulatorWasmBytes();
    expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x00, 0x61, 0x73, 0x6d]));
    expect(bytes.length).toBeGreaterThan(1_000_000);
  });

  test('runs a get-method as the emulator Executor.create() makes, each instance on its own', async () => {
    const [ours, second, theirs] = await Promise.all([createEmulator(), createEmulator(), Executor.create()]);
    expect(ours).toBeInstanceOf(Executor);
    const [a, b, c] = await Promise.all([echo(ours, 7n), echo(second, 8n), echo(theirs, 7n)]);
    for (const result of [a, b, c]) expect(result.output.success).toBe(true);
    if (!a.output.success || !b.output.success || !c.output.success) return;
    expect(a.output.vm_exit_code).toBe(0);
    expect(a.output.stack).toBe(c.output.stack);
    expect(a.output.gas_used).toBe(c.output.gas_used);
    expect(b.output.stack).not.toBe(a.output.stack);
  }, 60_000);
});
