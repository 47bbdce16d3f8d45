import { beginCell, Cell, Dictionary } from '@ton/core';
import { defaultConfig } from '@ton/sandbox';
import { parseStackCell, TvmPool } from '../../src/tvm';
import { configTextOf, shareConfig } from '../../src/tvm/sharedConfig';
import { getMethodTask } from '../hostile/tvmSupport';

/**
 * A task's config crosses to the TVM threads in shared memory (src/tvm/sharedConfig.ts): each
 * run must still see its own config, whichever thread runs it and whichever configs it ran before.
 */

/** DROP (the method id), CONFIGROOT: answers the config dictionary the run was given. */
const CONFIG_ROOT_CODE = beginCell().storeUint(0x30, 8).storeUint(0xf829, 16).endCell();

/** The default config with one more parameter: another config of about the same size. */
function otherConfig(): string {
  const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), Cell.fromBase64(defaultConfig));
  dict.set(7777, beginCell().storeUint(0xabcd, 16).endCell());
  return beginCell().storeDictDirect(dict).endCell().toBoc().toString('base64');
}

describe('configs shared with the TVM threads', () => {
  test('the same text is shared once; a thread reads back the text it was given', () => {
    const other = otherConfig();
    const a = shareConfig(defaultConfig);
    expect(shareConfig(defaultConfig)).toBe(a);
    const b = shareConfig(other);
    expect(b.id).not.toBe(a.id);
    expect(configTextOf(a)).toBe(defaultConfig);
    expect(configTextOf(b)).toBe(other);
    expect(configTextOf(a)).toBe(defaultConfig);
    expect(configTextOf('plain text')).toBe('plain text');
  });

  test('runs alternating between two configs on two threads each see their own config', async () => {
    const configs = [defaultConfig, otherConfig()];
    const roots = configs.map((text) => Cell.fromBase64(text).hash().toString('hex'));
    const pool = new TvmPool({ workers: 2, idleTimeoutMs: 60_000 });
    try {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => pool.getMethod(getMethodTask(CONFIG_ROOT_CODE, [], { config: configs[i % 2]! }), Date.now() + 30_000)),
      );
      answers.forEach((answer, i) => {
        expect(answer.exitCode).toBe(0);
        const stack = parseStackCell(Cell.fromBoc(Buffer.from(answer.stack))[0]!);
        const top = stack[stack.length - 1];
        expect(top?.type).toBe('cell');
        expect(top?.type === 'cell' ? top.cell.hash().toString('hex') : null).toBe(roots[i % 2]);
      });
    } finally {
      await pool.close();
    }
  }, 60_000);
});
