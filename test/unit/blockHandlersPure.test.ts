import { beginCell, Cell, convertToMerkleProof, Dictionary } from '@ton/core';
import type { BlockID } from 'ton-lite-client/dist/types';
import { storeShardIdent } from '@ton/core';
import { ApiError } from '../../src/errors';
import { collectBlockTransactions, type BlockTransactionsChunk } from '../../src/chain';
import { configDictionary, configParam } from '../../src/chain';
import { hashmapLookup } from '../../src/cells';
import type { ConfigInfo, TransactionId3 } from '../../src/tl';

/** The pure parts behind the block and config handlers: config proofs and the paging loop. */

const FULL_SHARD = '-9223372036854775808';

function configOf(entries: [number, Cell][]): Dictionary<number, Cell> {
  const dict = Dictionary.empty(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
  for (const [key, value] of entries) dict.set(key, value);
  return dict;
}

const value = (n: number) =>
  beginCell()
    .storeInt(n, 32)
    .storeRef(
      beginCell()
        .storeInt(n * 7, 64)
        .endCell(),
    )
    .endCell();
const PARAMS: [number, Cell][] = [0, 1, 2, 7, 8, 12, 15, 17, 20, 21, 32, 34, 44, 71, 100, 1000, -999, -1024].map((n) => [n, value(n)]);

describe('hashmapLookup / configParam', () => {
  const dict = configOf(PARAMS);
  const root = beginCell().storeDictDirect(dict).endCell();

  test('finds every key of a full dictionary, negative ones included, and nothing else', () => {
    for (const [key, cell] of PARAMS)
      expect([key, configParam(root, key)?.hash().toString('hex')]).toEqual([key, cell.hash().toString('hex')]);
    for (const key of [3, 33, 35, 101, -1, -998, 2147483647, -2147483648]) expect([key, configParam(root, key)]).toEqual([key, null]);
  });

  test('walks only the path to the key: a proof pruned to one parameter is enough for it', () => {
    const pruned = dict.generateMerkleProofDirect([34]);
    expect(pruned.hash(0).equals(root.hash())).toBe(true);
    expect(configParam(pruned, 34)?.hash().equals(value(34).hash())).toBe(true);
    // Another key behind a pruned branch is not in the proof: a clear lite-answer error, not a crash.
    const missing = (() => {
      try {
        configParam(pruned, 0);
        return null;
      } catch (err) {
        return err;
      }
    })();
    expect(missing).toBeInstanceOf(ApiError);
    expect((missing as ApiError).code).toBe(500);
    expect((missing as ApiError).message).toMatch(/^invalid lite-server answer: config param 0: the proof does not contain this key/);
  });

  test('the three label forms (short, long, same) and 1-bit dictionaries', () => {
    const small = Dictionary.empty(Dictionary.Keys.Uint(1), Dictionary.Values.Uint(8));
    small.set(1, 0xab);
    const cell = beginCell().storeDictDirect(small).endCell();
    expect(hashmapLookup(cell, 1, 1n)?.loadUint(8)).toBe(0xab);
    expect(hashmapLookup(cell, 1, 0n)).toBeNull();
    // A long run of equal bits is written as hml_same.
    const same = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Uint(8));
    same.set(0n, 1);
    same.set((1n << 256n) - 1n, 2);
    const sameCell = beginCell().storeDictDirect(same).endCell();
    expect(hashmapLookup(sameCell, 256, 0n)?.loadUint(8)).toBe(1);
    expect(hashmapLookup(sameCell, 256, (1n << 256n) - 1n)?.loadUint(8)).toBe(2);
    expect(hashmapLookup(sameCell, 256, 1n)).toBeNull();
  });
});

describe('configDictionary: the config out of a configInfo answer, checked against the block', () => {
  const dict = configOf(PARAMS);
  const dummy = (tag: number) => beginCell().storeUint(tag, 8).endCell();

  function shardState(config: Cell): Cell {
    const mcStateExtra = beginCell()
      .storeUint(0xcc26, 16)
      .storeBit(false) // shard_hashes: empty
      .storeBuffer(Buffer.alloc(32, 0x55)) // config_addr
      .storeRef(config)
      .storeRef(dummy(1))
      .endCell();
    return beginCell()
      .storeUint(0x9023afe2, 32)
      .storeInt(-239, 32)
      .store(storeShardIdent({ shardPrefixBits: 0, workchainId: -1, shardPrefix: 0n }))
      .storeUint(5, 32)
      .storeUint(0, 32)
      .storeUint(1700000000, 32)
      .storeUint(1000n, 64)
      .storeUint(4, 32)
      .storeRef(dummy(2)) // out_msg_queue_info
      .storeBit(false) // before_split
      .storeRef(dummy(3)) // accounts
      .storeRef(dummy(4)) // ^[...]
      .storeMaybeRef(mcStateExtra)
      .endCell();
  }

  const fullConfig = beginCell().storeDictDirect(dict).endCell();
  const state = shardState(fullConfig);

  function blockWithState(newState: Cell): Cell {
    const update = beginCell()
      .storeUint(4, 8)
      .storeBuffer(dummy(9).hash())
      .storeBuffer(newState.hash())
      .storeUint(dummy(9).depth(), 16)
      .storeUint(newState.depth(), 16)
      .storeRef(dummy(9))
      .storeRef(newState)
      .endCell({ exotic: true });
    return beginCell()
      .storeUint(0x11ef55aa, 32)
      .storeInt(-239, 32)
      .storeRef(dummy(5))
      .storeRef(dummy(6))
      .storeRef(update)
      .storeRef(dummy(7))
      .endCell();
  }

  const block = blockWithState(state);
  const blockId: BlockID = { workchain: -1, shard: FULL_SHARD, seqno: 5, rootHash: block.hash(), fileHash: Buffer.alloc(32, 1) };
  const answer = (configProofState: Cell, stateProofBlock = block, id = blockId): ConfigInfo => ({
    kind: 'liteServer.configInfo',
    mode: 0,
    id: { kind: 'tonNode.blockIdExt', ...id },
    stateProof: convertToMerkleProof(stateProofBlock).toBoc(),
    configProof: convertToMerkleProof(configProofState).toBoc(),
  });
  const failure = (fn: () => unknown): string => {
    try {
      fn();
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      return (err as ApiError).message;
    }
    throw new Error('no error');
  };

  test('a full config proof gives the whole dictionary (getConfigAll)', () => {
    const root = configDictionary(answer(state), blockId);
    expect(root.hash().equals(fullConfig.hash())).toBe(true);
  });

  test('a config proof pruned to the requested params still proves the block state (getConfigParams)', () => {
    const prunedState = shardState(dict.generateMerkleProofDirect([34, 8]));
    expect(prunedState.hash(0).equals(state.hash())).toBe(true);
    const root = configDictionary(answer(prunedState), blockId);
    expect(configParam(root, 34)?.hash().equals(value(34).hash())).toBe(true);
    expect(configParam(root, 8)?.hash().equals(value(8).hash())).toBe(true);
  });

  test('answers about another block, or proofs that do not chain, are refused with clear texts', () => {
    expect(failure(() => configDictionary(answer(state), { ...blockId, seqno: 6 }))).toBe(
      'invalid lite-server answer: configInfo: answer is about another block',
    );
    const otherBlock = blockWithState(dummy(8));
    expect(failure(() => configDictionary(answer(state, otherBlock), blockId))).toBe(
      'invalid lite-server answer: configInfo state proof: proof does not match the block root hash',
    );
    const otherState = shardState(
      beginCell()
        .storeDictDirect(configOf(PARAMS.slice(1)))
        .endCell(),
    );
    expect(failure(() => configDictionary(answer(otherState), blockId))).toBe(
      'invalid lite-server answer: configInfo: config proof is not a proof of the block state',
    );
    const notAProof = { ...answer(state), configProof: state.toBoc() };
    expect(failure(() => configDictionary(notAProof, blockId))).toBe(
      'invalid lite-server answer: configInfo config proof: not a Merkle proof',
    );
    const garbage = { ...answer(state), stateProof: Buffer.from('not a boc') };
    expect(failure(() => configDictionary(garbage, blockId))).toMatch(/^invalid lite-server answer: configInfo state proof: /);
  });
});

describe('collectBlockTransactions: toncenter paging', () => {
  type Tx = { account: Buffer; lt: bigint };
  const account = (n: number) => Buffer.alloc(32, n);
  /** A block with `n` transactions over a few accounts, listed in (account, lt) order like a lite server. */
  const block = (n: number): Tx[] =>
    Array.from({ length: n }, (_, i) => ({ account: account(1 + Math.floor(i / 100)), lt: BigInt(1000 + i) }));

  function server(txs: Tx[], calls: { count: number; after: TransactionId3 }[]) {
    return async (count: number, after: TransactionId3): Promise<BlockTransactionsChunk<Tx>> => {
      calls.push({ count, after });
      const afterAccount = after.account;
      const afterLt = BigInt(after.lt);
      const rest = txs.filter((tx) => tx.account.compare(afterAccount) > 0 || (tx.account.equals(afterAccount) && tx.lt > afterLt));
      const items = rest.slice(0, Math.min(count, 256));
      return { items, incomplete: rest.length > items.length || items.length === count };
    };
  }
  const cursorOf = (tx: Tx) => tx;

  test('chunks of min(256, remaining) from the zero cursor, stopping at count', async () => {
    const txs = block(700);
    const calls: { count: number; after: TransactionId3 }[] = [];
    const page = await collectBlockTransactions(600, undefined, server(txs, calls), cursorOf);
    expect(page.transactions).toEqual(txs.slice(0, 600));
    expect(page.incomplete).toBe(true);
    expect(calls.map((c) => c.count)).toEqual([256, 256, 88]);
    expect(calls[0].after).toEqual({ kind: 'liteServer.transactionId3', account: Buffer.alloc(32), lt: '0' });
    expect(calls[1].after).toEqual({ kind: 'liteServer.transactionId3', account: txs[255].account, lt: txs[255].lt.toString() });
  });

  test('stops when the lite server says complete; starts after a given cursor', async () => {
    const txs = block(300);
    const calls: { count: number; after: TransactionId3 }[] = [];
    const page = await collectBlockTransactions(10000, { account: txs[99].account, lt: txs[99].lt }, server(txs, calls), cursorOf);
    expect(page.transactions).toEqual(txs.slice(100));
    expect(page.incomplete).toBe(false);
    expect(calls.map((c) => c.count)).toEqual([256]);
  });

  test('never loops on an empty chunk that claims to be incomplete, and never returns more than count', async () => {
    let calls = 0;
    const stuck = await collectBlockTransactions(
      40,
      undefined,
      async () => {
        calls++;
        return { items: [] as Tx[], incomplete: true };
      },
      cursorOf,
    );
    expect(stuck).toEqual({ transactions: [], incomplete: true });
    expect(calls).toBe(1);
    const generous = await collectBlockTransactions(3, undefined, async () => ({ items: block(10), incomplete: true }), cursorOf);
    expect(generous.transactions).toHaveLength(3);
  });
});
