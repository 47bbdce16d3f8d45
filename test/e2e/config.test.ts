import { beginCell, Cell, Dictionary } from '@ton/core';
import { bocBase64 } from '../../src/cells/bocWriter';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { CALL_MODES, callV2, resultOf } from '../helpers/v2Calls';

/**
 * Config and libraries end to end over the local chain: the config is read out of the lite
 * server's proofs by our own code (LiteClient.getConfig cannot parse real masterchain states).
 */

interface ConfigInfo {
  '@type': 'configInfo';
  config: { '@type': 'tvm.cell'; bytes: string };
}
interface LibraryResult {
  '@type': 'smc.libraryResult';
  result: { '@type': 'smc.libraryEntry'; hash: string; data: string }[];
}

let stack: LocalStack;
const library = beginCell().storeUint(0xc0de, 16).storeRef(beginCell().storeStringTail('config e2e library').endCell()).endCell();

beforeAll(async () => {
  stack = await startLocalStack();
  await stack.localnet.chain.addLibrary(library);
  await stack.localnet.chain.seal();
}, 60000);

afterAll(async () => {
  await stack?.stop();
});

function configDict(info: ConfigInfo): Dictionary<number, Cell> {
  return Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), Cell.fromBase64(info.config.bytes));
}

describe.each(CALL_MODES)('%s', (mode) => {
  test('getConfigAll is the chain config dictionary, byte for byte as tonlib prints it', async () => {
    const info = await resultOf<ConfigInfo>(stack, mode, 'getConfigAll');
    expect(Object.keys(info)).toEqual(['@type', 'config']);
    expect(info['@type']).toBe('configInfo');
    expect(info.config['@type']).toBe('tvm.cell');
    const root = Cell.fromBase64(info.config.bytes);
    expect(root.hash().equals(stack.localnet.chain.config.root.hash())).toBe(true);
    expect(info.config.bytes).toBe(bocBase64(stack.localnet.chain.config.root));
    expect(configDict(info).keys()).toEqual(expect.arrayContaining([0, 1, 8, 12, 15, 17, 20, 21, 24, 25, 34]));
  });

  test('getConfigParam by param and by config_id, at the head and at a seqno', async () => {
    const dict = configDict(await resultOf<ConfigInfo>(stack, mode, 'getConfigAll'));
    for (const [name, id] of [
      ['param', 34],
      ['config_id', 12],
    ] as const) {
      const info = await resultOf<ConfigInfo>(stack, mode, 'getConfigParam', { [name]: id });
      expect(info).toEqual({ '@type': 'configInfo', config: { '@type': 'tvm.cell', bytes: bocBase64(dict.get(id)!) } });
    }
    const atFirst = await resultOf<ConfigInfo>(stack, mode, 'getConfigParam', { config_id: 34, seqno: 1 });
    expect(atFirst.config.bytes).toBe(bocBase64(dict.get(34)!));
    const absent = await resultOf<ConfigInfo>(stack, mode, 'getConfigParam', { config_id: 777 });
    expect(absent).toEqual({ '@type': 'configInfo', config: { '@type': 'tvm.cell', bytes: '' } });
  });

  test('errors: unknown masterchain block (lite-server 500), bad selectors (422)', async () => {
    const future = await callV2(stack, mode, 'getConfigParam', { config_id: 1, seqno: 10_000_000 });
    expect(future.status).toBe(500);
    expect(future.body.error).toMatch(/^LITE_SERVER_NOTREADY: block not found/);
    const all = await callV2(stack, mode, 'getConfigAll', { seqno: 10_000_000 });
    expect(all.status).toBe(500);
    const none = await callV2(stack, mode, 'getConfigParam', {});
    expect(none).toMatchObject({ status: 422, body: { error: 'failed to validate request: param required' } });
    const both = await callV2(stack, mode, 'getConfigParam', { param: 1, config_id: 2 });
    expect(both.status).toBe(422);
  });

  test('getLibraries: the libraries the chain has, unknown hashes left out', async () => {
    const known = library.hash();
    const unknown = Buffer.alloc(32, 0x5a);
    const result = await resultOf<LibraryResult>(stack, mode, 'getLibraries', {
      libraries: [known.toString('hex'), unknown.toString('base64')],
    });
    expect(result).toEqual({
      '@type': 'smc.libraryResult',
      result: [{ '@type': 'smc.libraryEntry', hash: known.toString('base64'), data: expect.any(String) }],
    });
    expect(Cell.fromBase64(result.result[0].data).hash().equals(known)).toBe(true);
    expect(await resultOf<LibraryResult>(stack, mode, 'getLibraries', { libraries: [unknown.toString('hex')] })).toEqual({
      '@type': 'smc.libraryResult',
      result: [],
    });
    expect(await resultOf<LibraryResult>(stack, mode, 'getLibraries', { libraries: [] })).toEqual({
      '@type': 'smc.libraryResult',
      result: [],
    });
  });
});

describe('every config param the chain has', () => {
  test('getConfigParam(n) is the value cell of n in getConfigAll, for every n', async () => {
    const dict = configDict(await resultOf<ConfigInfo>(stack, 'GET', 'getConfigAll'));
    const ids = dict.keys();
    expect(ids.length).toBeGreaterThan(20);
    for (const id of ids.filter((n) => n >= 0)) {
      const info = await resultOf<ConfigInfo>(stack, 'GET', 'getConfigParam', { config_id: id });
      expect([id, info.config.bytes]).toEqual([id, bocBase64(dict.get(id)!)]);
    }
    // Negative ids (mainnet's -999 and friends) are in getConfigAll only: toncenter refuses them.
    for (const id of ids.filter((n) => n < 0)) {
      const res = await callV2(stack, 'GET', 'getConfigParam', { config_id: id });
      expect([id, res.status, res.body.error]).toEqual([id, 422, 'failed to validate request: param should be non-negative']);
    }
  });
});
