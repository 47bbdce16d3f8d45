import { Address, beginCell, Cell, external, storeMessage, TupleItem } from '@ton/core';
import { TonClient } from '@ton/ton';
import { ApiError } from '../../src/errors';
import { tvmPool } from '../../src/tvm';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { deployFromWallet } from '../helpers/walletActions';
import {
  canary,
  contractInit,
  deepCell,
  ECHO_CODE,
  flatLegacyStack,
  GAS_LOOP_CODE,
  getMethodTask,
  getJson,
  postJson,
  sharedChildCell,
  typedNumbers,
  withStallProbe,
  type Answer,
} from './tvmSupport';
import { httpStatusOf } from '../../src/httpErrors';
import { expectNoStall, leastStall, MAX_STALL_MS, type StallOutcome } from '../helpers/stallProbe';

/**
 * What a hostile client can send to the TVM-backed methods (get-methods, estimateFee, DNS, BoC
 * parameters), against the real local chain over ADNL. Each case checks the answer, that the
 * server still serves (the canary) and, for the heavy ones, that the event loop kept turning
 * (MAX_STALL_MS of main-thread work at most; the probe leaves out the OS running other processes
 * and collections of jest's own heap, see StallReport).
 */

function expectError(answer: Answer, code: number, text: RegExp): void {
  expect({ status: answer.status, ok: answer.body.ok, code: answer.body.code }).toEqual({ status: code, ok: false, code });
  expect(answer.body.error).toMatch(text);
  // Error texts stay short: they never echo the input back.
  expect((answer.body.error ?? '').length).toBeLessThan(300);
}

describe('hostile input to the TVM-backed methods', () => {
  let stack: LocalStack;
  let wallet: string;
  let echo: string;
  let loop: string;

  beforeAll(async () => {
    // A long request deadline: the 4 000 000-gas loop takes seconds on a loaded machine.
    // The local chain seals blocks on this very event loop; with --block-interval 0 it seals only
    // when a message arrives, so the probes see the server's work and not the chain's.
    stack = await startLocalStack(['--request-timeout', '60000', '--tvm-workers', '2', '--block-interval', '0']);
    wallet = stack.localnet.wallets.wallets[0]!.address.toString();
    const client = new TonClient({ endpoint: `${stack.api}/jsonRPC` });
    const [echoAddress, loopAddress] = await deployFromWallet(client, stack.localnet.wallets.keyPair, [
      contractInit(ECHO_CODE, 1),
      contractInit(GAS_LOOP_CODE, 2),
    ]);
    echo = echoAddress!.toString();
    loop = loopAddress!.toString();
  }, 120000);

  afterAll(async () => {
    await stack?.stop();
  });

  async function expectCanary(): Promise<void> {
    const { info, seqno } = await canary(stack, wallet);
    expect(info.status).toBe(200);
    expect(info.body.result).toMatchObject({ '@type': 'blocks.masterchainInfo' });
    expect(seqno.status).toBe(200);
    expect(seqno.body.result).toMatchObject({ exit_code: 0, stack: [['num', expect.stringMatching(/^0x[0-9a-f]+$/)]] });
  }

  /**
   * A refused (or cheap) runGetMethod under the stall probe, repeated as leastStall does: a refusal
   * is never cached, so every attempt does the same work, and one burst the code does not control
   * (another process on the cores, jest's own collection) does not fail the suite.
   */
  async function runLegacy(address: string, entries: unknown[], method = 'get_anything'): Promise<{ value: Answer; stall: StallOutcome }> {
    const json = JSON.stringify({ address, method, stack: entries });
    const { result: value, ...stall } = await leastStall(() => postJson(stack, 'runGetMethod', json));
    return { value, stall };
  }

  // Each entry is three JSON elements (the pair and its two strings): past 5 461 entries the
  // intake's element pre-scan refuses the body before it is parsed.
  test.each([
    [330, /stack has more than 256 entries/],
    [1000, /stack has more than 256 entries/],
    [20_000, /^failed to parse post request: JSON has more than 16384 array items and object members$/],
    [95_000, /^failed to parse post request: JSON has more than 16384 array items and object members$/],
  ])('runGetMethod with a flat stack of %i entries: 422 naming the bound, no stall', async (count, error) => {
    const { value, stall } = await runLegacy(echo, flatLegacyStack(count));
    expectError(value, 422, error);
    expectNoStall(stall);
    await expectCanary();
  });

  test('the bound is usable: 255 entries are echoed by the contract', async () => {
    const { value } = await runLegacy(echo, flatLegacyStack(255));
    expect(value.status).toBe(200);
    const result = value.body.result as { stack: unknown[]; exit_code: number };
    expect(result.exit_code).toBe(0);
    expect(result.stack).toHaveLength(255);
    expect(result.stack[254]).toEqual(['num', '0x1']);
    await expectCanary();
  });

  test('runGetMethod with a list of 400 elements (400 nested pairs in the TVM): 422', async () => {
    const list = ['list', { elements: typedNumbers(400) }];
    const { value, stall } = await runLegacy(echo, [list]);
    expectError(value, 422, /stack has more than 256 entries/);
    expectNoStall(stall);
    await expectCanary();
  });

  test('runGetMethod with a tvm.Cell 1000 cells deep: 422 naming the depth bound', async () => {
    const boc = deepCell(1000).toBoc().toString('base64');
    const { value, stall } = await runLegacy(echo, [['tvm.Cell', boc]]);
    expectError(value, 422, /a stack cell is 999 cells deep, at most 256/);
    expectNoStall(stall);
    await expectCanary();
  });

  test('entries and cell depth together past what the emulator survives: 422 naming the stack depth', async () => {
    const entries = [['tvm.Cell', deepCell(200).toBoc().toString('base64')], ...flatLegacyStack(100)];
    const { value } = await runLegacy(echo, entries);
    expectError(value, 422, /stack is 300 cells deep as the TVM receives it .* at most 256/);
    await expectCanary();
  });

  test('runGetMethodStd with 400 entries: 422', async () => {
    const json = JSON.stringify({ address: echo, method: 'get_anything', stack: typedNumbers(400) });
    const { result: value, ...stall } = await leastStall(() => postJson(stack, 'runGetMethodStd', json));
    expectError(value, 422, /stack has more than 256 entries/);
    expectNoStall(stall);
    await expectCanary();
  });

  test('a 24-level cell whose levels share one child, echoed: legacy object form refused with a 422, typed form answers', async () => {
    const cell = sharedChildCell(24);
    const boc = cell.toBoc().toString('base64');
    expect(Buffer.from(boc, 'base64').length).toBeLessThan(300);
    const { value, stall } = await runLegacy(echo, [['tvm.Cell', boc]]);
    expectError(value, 422, /too large for the legacy object form .*use runGetMethodStd/);
    expectNoStall(stall);

    const typed = JSON.stringify({
      address: echo,
      method: 'get_anything',
      stack: [{ '@type': 'tvm.stackEntryCell', cell: { bytes: boc } }],
    });
    const std = await postJson(stack, 'runGetMethodStd', typed);
    expect(std.status).toBe(200);
    const [entry] = (std.body.result as { stack: { cell: { bytes: string } }[] }).stack;
    expect(Cell.fromBase64(entry!.cell.bytes).hash().equals(cell.hash())).toBe(true);
    await expectCanary();
  });

  test('a get-method looping until its 4 000 000 gas run out: exit -14 in a worker, the event loop and other requests keep going', async () => {
    // Probed once: a repeat could be answered from the response cache and prove nothing.
    const json = JSON.stringify({ address: loop, method: 'get_anything', stack: [] });
    const running = withStallProbe(() => postJson(stack, 'runGetMethod', json));
    // While it runs, a non-TVM request is served.
    const during = await getJson(stack, 'getMasterchainInfo');
    expect(during.status).toBe(200);
    const { result: value, stallMs } = await running;
    expect(value.status).toBe(200);
    const result = value.body.result as { exit_code: number; gas_used: number };
    expect(result.exit_code).toBe(-14);
    expect(result.gas_used).toBeGreaterThanOrEqual(4_000_000);
    expect(stallMs).toBeLessThan(MAX_STALL_MS);
    await expectCanary();
  }, 120000);

  // Serialised without our bounds (@ton/core's own serialiser).
  const rawStackTask = (items: TupleItem[], code = ECHO_CODE) =>
    getMethodTask(code, items, { config: stackConfig, address: Address.parse(echo).toRawString() });

  let stackConfig = '';

  test('an emulator that traps: that request gets its own error, the worker drops the emulator, later requests are served', async () => {
    const configAnswer = await getJson(stack, 'getConfigAll');
    stackConfig = (configAnswer.body.result as { config: { bytes: string } }).config.bytes;
    // A cell 1000 deep on the stack, past our bounds: the emulator's recursion overflows (a trap).
    const deep: TupleItem = { type: 'cell', cell: deepCell(1000) };
    const pool = tvmPool();
    // Every worker gets a trapping task (the pool has two).
    const trapped = await Promise.allSettled([
      pool.getMethod(rawStackTask([deep]), Date.now() + 30000),
      pool.getMethod(rawStackTask([deep]), Date.now() + 30000),
    ]);
    for (const outcome of trapped) {
      expect(outcome.status).toBe('rejected');
      const error = (outcome as PromiseRejectedResult).reason as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect([httpStatusOf(error), error.message]).toEqual([500, 'TVM emulator failed on this request; it was reset']);
    }
    const again = await pool.getMethod(rawStackTask([{ type: 'int', value: 7n }]), Date.now() + 30000);
    expect(again.exitCode).toBe(0);
    const { value } = await runLegacy(echo, [['num', 7]]);
    expect(value.status).toBe(200);
    expect((value.body.result as { stack: unknown[] }).stack).toEqual([['num', '0x7']]);
    await expectCanary();
  }, 60000);

  test('a task past its deadline is aborted (504), its thread ends and the next task gets another', async () => {
    const pool = tvmPool();
    const started = Date.now();
    await expect(pool.getMethod({ ...rawStackTask([], GAS_LOOP_CODE), methodId: 1 }, Date.now() + 300)).rejects.toMatchObject({
      kind: 'timeout',
      message: 'TVM execution did not finish before the request deadline',
    });
    expect(Date.now() - started).toBeLessThan(5000);
    const { value } = await runLegacy(echo, [['num', 9]]);
    expect(value.status).toBe(200);
    // Threads start on demand, up to --tvm-workers.
    expect(pool.threads).toBeGreaterThanOrEqual(1);
    expect(pool.threads).toBeLessThanOrEqual(2);
    await expectCanary();
  }, 60000);

  test('dnsResolve on a contract that is not a resolver: 409', async () => {
    const answer = await getJson(stack, 'dnsResolve', { address: wallet, name: 'alice.ton' });
    expectError(answer, 409, /is not a DNS resolver: dnsresolve failed with exit code 11/);
    await expectCanary();
  });

  test('dnsResolve with ttl above the bound: 422', async () => {
    const answer = await postJson(stack, 'dnsResolve', JSON.stringify({ address: echo, name: 'a.b.c', ttl: 17 }));
    expectError(answer, 422, /ttl should be at most 16/);
    await expectCanary();
  });

  test('getLibraries with more hashes than one call may ask: 422', async () => {
    const hashes = Array.from({ length: 17 }, (_, i) => Buffer.alloc(32, i).toString('hex'));
    const answer = await getJson(stack, 'getLibraries', { libraries: hashes });
    expectError(answer, 422, /at most 16 libraries per call, got 17/);
    await expectCanary();
  });

  function externalTo(address: string, body: Cell): string {
    return beginCell()
      .store(storeMessage(external({ to: Address.parse(address), body })))
      .endCell()
      .toBoc()
      .toString('base64');
  }

  test('sendBoc with a message 1000 cells deep: 422 naming the depth bound', async () => {
    const json = JSON.stringify({ boc: externalTo(wallet, deepCell(1000)) });
    const { result: value, ...stall } = await leastStall(() => postJson(stack, 'sendBoc', json));
    expectError(value, 422, /boc is 999 cells deep, at most 512/);
    expectNoStall(stall);
    await expectCanary();
  });

  /** A wide tree of distinct cells (`leaves` leaves with `leafBytes` more bytes each, 4 refs a level): about leaves * 4/3 cells. */
  function wideTree(leaves: number, leafBytes = 0): Cell {
    let layer: Cell[] = Array.from({ length: leaves }, (_, i) =>
      beginCell()
        .storeUint(i, 16)
        .storeBuffer(Buffer.alloc(leafBytes, i % 251))
        .endCell(),
    );
    while (layer.length > 1) {
      const next: Cell[] = [];
      for (let i = 0; i < layer.length; i += 4) {
        const builder = beginCell();
        for (const ref of layer.slice(i, i + 4)) builder.storeRef(ref);
        next.push(builder.endCell());
      }
      layer = next;
    }
    return layer[0]!;
  }

  test('sendBoc with a BoC of 10 000 cells: 422 naming the cell bound', async () => {
    const json = JSON.stringify({ boc: externalTo(wallet, wideTree(7500)) });
    const { result: value, ...stall } = await leastStall(() => postJson(stack, 'sendBoc', json));
    expectError(value, 422, /boc has 10\d{3} cells, at most 8192/);
    expectNoStall(stall);
    await expectCanary();
  });

  test('estimateFee with a body, init_code and init_data too deep: 422 naming the parameter', async () => {
    const deep = deepCell(600).toBoc().toString('base64');
    for (const name of ['body', 'init_code', 'init_data']) {
      const params = { address: echo, body: 'te6cckEBAQEAAgAAAEysuc0=', [name]: deep };
      const answer = await postJson(stack, 'estimateFee', JSON.stringify(params));
      expectError(answer, 422, new RegExp(`${name} is 599 cells deep, at most 256`));
    }
    await expectCanary();
  });

  test('estimateFee of a body at the depth bound (256) runs in a worker and answers', async () => {
    const body = deepCell(257).toBoc().toString('base64');
    const answer = await postJson(stack, 'estimateFee', JSON.stringify({ address: echo, body }));
    expect([answer.status, answer.body.error]).toEqual([200, undefined]);
    expect(answer.body.result).toMatchObject({ '@type': 'query.fees' });
    await expectCanary();
  });

  test('sendBocReturnHash of a BoC that is not a message: 422 from the worker', async () => {
    const boc = beginCell().storeUint(7, 8).endCell().toBoc().toString('base64');
    const answer = await postJson(stack, 'sendBocReturnHash', JSON.stringify({ boc }));
    expectError(answer, 422, /boc is not a message/);
    await expectCanary();
  });
});
