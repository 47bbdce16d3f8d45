import { randomBytes } from 'node:crypto';
import { Address, beginCell, Cell, CellType, Dictionary, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import type { WalletContractV4 } from '@ton/ton';
import { decodeAuthenticatedBoc, merkleProof, merkleUpdate, prunedBranch, serializeBoc, useCoreCells, useLeanCells } from '../../src/cells';
import { coreDeserializeBoc } from '../../src/cells/fastBoc';
import { merkleUpdateCell } from '../../src/cells/merkle';
import { startLocalnet, type Localnet } from '../../src/localnet';
import { jettonWalletAddress, jettonWalletInit, mintBody } from '../helpers/jetton';

/**
 * decodeAuthenticatedBoc computes hashes and depths when first asked: every cell of its trees must
 * answer what @ton/core's decoder answers, at every level, whichever cell is asked first.
 */

/** Every cell's answers, depth first, asking each cell before its children (the lazy order at its worst). */
function shape(roots: Cell[]): string[] {
  const out: string[] = [];
  const walk = (c: Cell) => {
    const levels = [0, 1, 2, 3].map((l) => `${c.hash(l).toString('hex')}/${c.depth(l)}`).join(',');
    out.push(`${c.type}:${c.isExotic}:${c.level()}:${c.mask.value}:${c.bits.toString()}:${c.refs.length}:${levels}`);
    c.refs.forEach(walk);
  };
  roots.forEach(walk);
  return out;
}

/** Every cell reachable from `roots`, deepest first, without asking anyone's hash. */
function cellsBottomUp(roots: Cell[]): Cell[] {
  const order: Cell[] = [];
  const seen = new Set<Cell>();
  const visit = (c: Cell) => {
    if (seen.has(c)) return;
    seen.add(c);
    c.refs.forEach(visit);
    order.push(c);
  };
  roots.forEach(visit);
  return order;
}

function dictTree(seed: number): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
  for (let i = 0; i < 80; i++) dict.set(i * 37 + seed, beginCell().storeBuffer(randomBytes(i % 50)).storeUint(i % 2, 1 + (i % 7)).endCell());
  return beginCell().storeUint(seed, 16).storeDict(dict).endCell();
}

/** @ton/core's own decoder (Cell.fromBoc is decodeBocFast in a thread that ran useLeanCells, as startLocalnet does). */
function coreCells(boc: Buffer): Cell[] {
  return coreDeserializeBoc(boc);
}

function expectSameAsCore(boc: Buffer): void {
  expect(shape(decodeAuthenticatedBoc(boc))).toEqual(shape(coreCells(boc)));
  // Asked from the leaves up (each hash computed alone) and from the root down: the same values.
  const leavesFirst = decodeAuthenticatedBoc(boc);
  const core = cellsBottomUp(coreCells(boc)).map((c) => c.hash(0).toString('hex') + c.hash(3).toString('hex'));
  expect(cellsBottomUp(leavesFirst).map((c) => c.hash(0).toString('hex') + c.hash(3).toString('hex'))).toEqual(core);
}

describe('decodeAuthenticatedBoc', () => {
  it('answers as @ton/core for a Merkle update (ordinary cells of levels 0 and 1, pruned branches), in either order of asking', () => {
    const before = dictTree(1);
    const after = beginCell().storeUint(1, 16).storeDict(Dictionary.loadDirect(Dictionary.Keys.Uint(32), Dictionary.Values.Cell(), before.beginParse().skip(16).loadRef())).storeRef(dictTree(2)).endCell();
    const update = merkleUpdate(before, after);
    expect(update.type).toBe(CellType.MerkleUpdate);
    const boc = serializeBoc([beginCell().storeUint(7, 32).storeRef(update).storeRef(dictTree(3)).endCell()]);
    expectSameAsCore(boc);
    const [root] = decodeAuthenticatedBoc(boc);
    const lazyUpdate = root!.refs[0]!;
    expect(lazyUpdate.type).toBe(CellType.MerkleUpdate);
    expect(lazyUpdate.isExotic).toBe(true);
    expect(() => lazyUpdate.beginParse()).toThrow('Exotic cells cannot be parsed');
    expect(lazyUpdate.beginParse(true).loadUint(8)).toBe(4);
    // Cells made from lazy ones hash as from @ton/core's, and the BoC written back is the same.
    expect(root!.toBoc().equals(Cell.fromBoc(boc)[0]!.toBoc())).toBe(true);
    expect(beginCell().storeRef(root!.refs[1]!).endCell().hash().equals(beginCell().storeRef(Cell.fromBoc(boc)[0]!.refs[1]!).endCell().hash())).toBe(true);
  });

  it('hashes a chain 5 000 cells deep without recursion, and several roots sharing cells', () => {
    let deep = beginCell().storeUint(1, 1).endCell();
    for (let i = 0; i < 5_000; i++) deep = beginCell().storeUint(i, 13).storeRef(deep).endCell();
    const boc = deep.toBoc();
    const [root] = decodeAuthenticatedBoc(boc);
    // The root first: every cell below is computed by one call, with no stack of calls.
    expect(root!.hash().equals(deep.hash())).toBe(true);
    expect(root!.depth()).toBe(5_000);
    const shared = dictTree(4);
    const two = serializeBoc([beginCell().storeRef(shared).endCell(), beginCell().storeUint(1, 1).storeRef(shared).endCell()]);
    expectSameAsCore(two);
  });

  it('builds other exotic cells (a level-2 pruned branch, a Merkle proof) at once, as decodeBocFast does', () => {
    const leaf = beginCell().storeBuffer(randomBytes(40)).storeRef(beginCell().storeUint(9, 12).endCell()).endCell();
    const two = beginCell().storeUint(1, 8).storeUint(3, 8).storeBuffer(randomBytes(32)).storeBuffer(randomBytes(32)).storeUint(7, 16).storeUint(5, 16).endCell({ exotic: true });
    const proved = beginCell().storeRef(leaf).storeRef(prunedBranch(leaf)).endCell();
    const proof = merkleProof(proved, { open: new Set([proved]) });
    // A Merkle update over trees of level 2 (its own mask 1): @ton/core's too.
    const deepLeft = beginCell().storeRef(two).endCell();
    const deepRight = beginCell().storeRef(two).storeUint(1, 1).endCell();
    const updateOfLevel2 = merkleUpdateCell(deepLeft, deepRight, deepLeft, deepRight);
    const cells = [two, proof, beginCell().storeRef(two).storeRef(leaf).endCell(), updateOfLevel2];
    // And lazy cells over those built at once (an ordinary cell over a Merkle proof and a leaf).
    cells.push(beginCell().storeUint(5, 3).storeRef(proof).storeRef(leaf).endCell(), beginCell().storeRef(updateOfLevel2).endCell());
    for (const cell of cells) expectSameAsCore(serializeBoc([cell]));
  });

  it('cells built over lazy cells not hashed yet hash as over @ton/core cells, with lean builders on (as in the chain and index threads)', () => {
    const before = dictTree(6);
    const after = beginCell().storeUint(2, 16).storeRef(dictTree(7)).storeRef(before).endCell();
    const boc = serializeBoc([beginCell().storeRef(merkleUpdate(before, after)).storeRef(dictTree(8)).endCell()]);
    const reference = coreCells(boc)[0]!;
    const built = (root: Cell) => [
      beginCell().storeUint(1, 8).storeRef(root.refs[1]!).endCell(),
      beginCell().storeRef(root.refs[0]!.refs[1]!).storeRef(root.refs[1]!.refs[0]!).endCell(),
      beginCell().storeSlice(root.refs[1]!.beginParse()).endCell(),
    ];
    useCoreCells();
    const expected = built(reference).map((c) => `${c.hash(0).toString('hex')}/${c.hash(3).toString('hex')}/${c.depth()}`);
    try {
      for (const lean of [true, false]) {
        if (lean) useLeanCells();
        else useCoreCells();
        // Decoded afresh each time: nothing hashed before the builders ask.
        const cells = built(decodeAuthenticatedBoc(boc)[0]!);
        expect(cells.map((c) => `${c.hash(0).toString('hex')}/${c.hash(3).toString('hex')}/${c.depth()}`)).toEqual(expected);
      }
    } finally {
      useLeanCells();
    }
  });

  it('leaves a BoC it does not read to decodeBocFast (and so a damaged one is refused)', () => {
    const boc = dictTree(5).toBoc({ idx: true, crc32: true });
    expectSameAsCore(boc);
    const damaged = Buffer.from(boc);
    damaged[damaged.length - 1] = damaged[damaged.length - 1]! ^ 0x01;
    expect(() => decodeAuthenticatedBoc(damaged)).toThrow();
  });
});

describe('decodeAuthenticatedBoc on the local chain', () => {
  let net: Localnet;

  beforeAll(async () => {
    net = await startLocalnet({ accounts: 2, blockIntervalMs: 3_600_000, shards: 2 });
  }, 60_000);

  afterAll(async () => {
    await net?.stop();
  });

  it("answers as @ton/core for every cell of every block (transfers, a jetton wallet's deploy and mint), whichever is asked first", async () => {
    const { keyPair } = net.wallets;
    const v4 = net.wallets.wallets.find((w) => w.version === 'v4r2')!;
    const jettonWallet = jettonWalletAddress(v4.address, v4.address);
    for (let seqno = 0; seqno < 2; seqno++) {
      const body = (v4.contract as WalletContractV4).createTransfer({
        seqno,
        secretKey: keyPair.secretKey,
        sendMode: SendMode.PAY_GAS_SEPARATELY,
        messages: [
          internal({ to: new Address(0, randomBytes(32)), value: toNano('0.01'), bounce: false }),
          internal({ to: jettonWallet, value: toNano('0.2'), bounce: false, init: jettonWalletInit(v4.address, v4.address), body: mintBody(1_000n, v4.address) }),
        ],
      });
      await net.chain.submitExternalMessage(beginCell().store(storeMessage(external({ to: v4.address, body }))).endCell().toBoc());
      await net.chain.seal();
      await net.chain.seal();
    }
    const blocks = [...net.chain.store.blocks(-1), ...net.chain.store.shards(0).flatMap((shard) => [...net.chain.store.blocks(0, shard)])];
    const withTransactions = blocks.filter((block) => block.transactions.length > 0);
    expect(withTransactions.length).toBeGreaterThan(2);
    // The blocks' state updates are Merkle updates whose new side holds pruned branches (level 1).
    const updates = blocks.map((block) => decodeAuthenticatedBoc(block.boc)[0]!.refs[2]!);
    expect(updates.every((update) => update.type === CellType.MerkleUpdate)).toBe(true);
    expect(updates.filter((update) => update.refs[1]!.level() === 1).length).toBeGreaterThan(2);
    for (const block of blocks) {
      const [root] = decodeAuthenticatedBoc(block.boc);
      // The root hash is the block's id, through the state update (a Merkle update) and its pruned branches.
      expect(root!.hash().equals(block.id.rootHash)).toBe(true);
      expectSameAsCore(block.boc);
    }
  }, 120_000);
});
