import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { Address } from '@ton/core';
import { leanAddress } from '../../src/localnet/ledger/sandboxAdapter';

/** Own properties holding functions: @ton/core's Address constructor makes five per address. */
function ownFunctions(value: object): number {
  return Reflect.ownKeys(value).filter((key) => typeof (value as Record<string | symbol, unknown>)[key] === 'function').length;
}

describe('leanAddress', () => {
  it("answers as @ton/core's Address, with no closures of its own", () => {
    for (const workchain of [0, -1]) {
      const hash = randomBytes(32);
      const core = new Address(workchain, hash);
      const lean = leanAddress(workchain, hash);
      expect(ownFunctions(core)).toBe(5);
      expect(ownFunctions(lean)).toBe(0);
      expect(lean).toBeInstanceOf(Address);
      expect(Address.isAddress(lean)).toBe(true);
      expect(lean.equals(core) && core.equals(lean)).toBe(true);
      expect(lean.equals(leanAddress(workchain, randomBytes(32)))).toBe(false);
      expect(lean.workChain).toBe(workchain);
      expect(lean.hash.equals(hash)).toBe(true);
      expect(lean.toRawString()).toBe(core.toRawString());
      expect(lean.toRaw().equals(core.toRaw())).toBe(true);
      for (const args of [undefined, { bounceable: false }, { testOnly: true, urlSafe: false }, { urlSafe: true, bounceable: true, testOnly: false }]) {
        expect(lean.toString(args)).toBe(core.toString(args));
        expect(lean.toStringBuffer(args).equals(core.toStringBuffer(args))).toBe(true);
      }
      expect(inspect(lean)).toBe(inspect(core));
      expect(`${lean}`).toBe(`${core}`);
      expect(Address.parse(lean.toString()).equals(core)).toBe(true);
    }
  });
});
