import { Address, Cell, type TupleItem } from '@ton/core';
import { defaultConfig } from '@ton/sandbox';
import { Executor } from '@ton/sandbox/dist/executor/Executor';
import { createEmulator, emulatorWasmBytes, resultWithoutVmLog } from '../../src/tvm/emulator';
import { ECHO_CODE, GAS_LOOP_CODE } from '../hostile/tvmSupport';

/**
 * The TVM threads' emulator made from natively decoded wasm (src/tvm/emulator.ts): the bytes
 * are sandbox's own, and the emulator runs get-methods as the one Executor.create() makes.
 */

function echo(vm: Executor, value: bigint) {
  return runGetMethod(vm, ECHO_CODE, 0, [{ type: 'int', value }], 1_000_000n);
}

function runGetMethod(vm: Executor, code: Cell, methodId: number, stack: TupleItem[], gasLimit: bigint) {
  return vm.runGetMethod({
    code,
    data: Cell.EMPTY,
    methodId,
    stack,
    config: defaultConfig,
    verbosity: 'short',
    address: new Address(0, Buffer.alloc(32, 1)),
    unixTime: 1_700_000_000,
    balance: 0n,
    randomSeed: Buffer.alloc(32),
    gasLimit,
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

describe("the emulator's answer read without its VM log", () => {
  /** A wasm-like memory holding `text` as a C string at offset 8, and the frees it saw. */
  function answerAt(text: string) {
    const bytes = Buffer.from(`${'\0'.repeat(8)}${text}\0garbage`);
    const freed: number[] = [];
    return {
      memory: { buffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer },
      module: { _free: (p: number) => freed.push(p) },
      freed,
    };
  }

  test('the log is emptied, escaped quotes inside it included; the rest and the free are as before', () => {
    const text = '{"output":{"success":true,"vm_exit_code":-14,"vm_log":"execute \\"x\\" \\\\","missing_library":null},"logs":"l"}';
    const { memory, module, freed } = answerAt(text);
    const lean = resultWithoutVmLog(memory, module, 8);
    expect(JSON.parse(lean)).toEqual({ output: { success: true, vm_exit_code: -14, vm_log: '', missing_library: null }, logs: 'l' });
    expect(freed).toEqual([8]);
  });

  test('an answer without a log is returned whole', () => {
    const { memory, module } = answerAt('{"emulatorLibCommitHash":"abc"}');
    expect(resultWithoutVmLog(memory, module, 8)).toBe('{"emulatorLibCommitHash":"abc"}');
  });

  test('a 4 000 000-gas get-method answers as before without its 40 MB log', async () => {
    const vm = await createEmulator();
    const result = await runGetMethod(vm, GAS_LOOP_CODE, 1, [], 4_000_000n);
    expect(result.output).toMatchObject({ success: true, vm_exit_code: -14, gas_used: '4000001', vm_log: '' });
  }, 120_000);
});
