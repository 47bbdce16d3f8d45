import { beginCell } from '@ton/core';
import { describeForgery } from './forgeryCase';
import { withForgedConfigParam } from './forgeries';

/** Issue 13, config and libraries: config proofs against the block's state, libraries against their hash. */

describeForgery({
  name: 'a config with a forged param',
  path: () => 'getConfigParam?config_id=15',
  apply: (stack) =>
    stack.liar.tamper('liteServer.getConfigParams', (answer) => ({
      ...answer,
      configProof: withForgedConfigParam(
        answer.configProof,
        15,
        beginCell().storeUint(1, 32).storeUint(2, 32).storeUint(3, 32).storeUint(4, 32).endCell(),
      ),
    })),
});

const library = beginCell().storeUint(0xdeadbeef, 32).storeStringTail('a library of the local chain').endCell();

describeForgery({
  name: 'a library whose content does not match its hash',
  prepare: async (stack) => {
    await stack.localnet.chain.addLibrary(library);
    await stack.localnet.chain.seal();
  },
  path: () => `getLibraries?libraries=${library.hash().toString('hex')}`,
  apply: (stack) =>
    stack.liar.tamper('liteServer.getLibraries', (answer) => ({
      ...answer,
      result: answer.result.map((entry) => ({ ...entry, data: beginCell().storeUint(0xbadc0de, 32).endCell().toBoc() })),
    })),
});
