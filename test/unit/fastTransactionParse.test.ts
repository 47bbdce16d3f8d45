import {
  Address,
  beginCell,
  Cell,
  Dictionary,
  ExternalAddress,
  storeMessage,
  storeTransaction,
  type CurrencyCollection,
  type Message,
  type StateInit,
  type Transaction,
  type TransactionComputePhase,
  type TransactionDescription,
} from '@ton/core';
import { randomBytes } from 'node:crypto';
import { parseTransaction, parseTransactionSlow } from '../../src/indexer/parseBlock';
import { BitCursor } from '../../src/cells';

/**
 * The byte-level transaction reader (parseTransaction) gives the rows @ton/core's object model
 * gives (parseTransactionSlow), on transactions of every description the index meets, each phase
 * present and absent, every kind of message, inline and referenced bodies and init states; the
 * layouts it leaves to @ton/core (extra currencies, split_install) come out the same too.
 */

// mulberry32: every bit of its output varies (an LCG's low bits cycle with a short period).
let seed = 12345;
function rand(n: number): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
}
const chance = (p: number) => rand(1000) < p * 1000;
const big = (bits: number) => (bits === 0 ? 0n : BigInt('0x' + randomBytes(Math.ceil(bits / 8)).toString('hex')) & ((1n << BigInt(bits)) - 1n));
const coins = () => (chance(0.2) ? 0n : big(rand(120) + 1));
const address = () => new Address(chance(0.5) ? 0 : -1, randomBytes(32));

function currency(extra: boolean): CurrencyCollection {
  if (!extra) return { coins: coins() };
  const other = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigVarUint(5));
  other.set(rand(100), big(40) + 1n);
  return { coins: coins(), other };
}

function body(): Cell {
  const b = beginCell();
  const kind = rand(4);
  if (kind === 0) return b.endCell();
  if (kind === 1) return b.storeUint(rand(2 ** 31), 31).endCell(); // shorter than an opcode
  b.storeUint(big(32), 32).storeUint(big(64), 64);
  if (kind === 3) b.storeBits(beginCell().storeBuffer(randomBytes(100)).endCell().bits).storeRef(beginCell().storeUint(7, 8).endCell());
  return b.endCell();
}

function stateInit(): StateInit {
  return {
    splitDepth: chance(0.3) ? rand(31) : undefined,
    special: chance(0.3) ? { tick: chance(0.5), tock: chance(0.5) } : undefined,
    code: chance(0.8) ? beginCell().storeUint(big(48), 48).endCell() : null,
    data: chance(0.8) ? beginCell().storeUint(big(48), 48).storeRef(beginCell().endCell()).endCell() : null,
  };
}

function message(kind: 'internal' | 'external-in' | 'external-out', extra = false): Message {
  const init = chance(0.3) ? stateInit() : null;
  if (kind === 'internal') {
    return {
      info: { type: 'internal', ihrDisabled: chance(0.5), bounce: chance(0.5), bounced: chance(0.5), src: address(), dest: address(), value: currency(extra), ihrFee: coins(), forwardFee: coins(), createdLt: big(64), createdAt: rand(2 ** 31) },
      init,
      body: body(),
    };
  }
  if (kind === 'external-in') {
    return { info: { type: 'external-in', src: chance(0.5) ? null : new ExternalAddress(big(20), 20), dest: address(), importFee: coins() }, init, body: body() };
  }
  return { info: { type: 'external-out', src: address(), dest: chance(0.5) ? null : new ExternalAddress(big(33), 33), createdLt: big(64), createdAt: rand(2 ** 31) }, init, body: body() };
}

function compute(): TransactionComputePhase {
  if (chance(0.3)) return { type: 'skipped', reason: (['no-state', 'bad-state', 'no-gas'] as const)[rand(3)]! };
  return {
    type: 'vm',
    success: chance(0.5),
    messageStateUsed: chance(0.5),
    accountActivated: chance(0.5),
    gasFees: coins(),
    gasUsed: big(rand(50) + 1),
    gasLimit: big(rand(50) + 1),
    gasCredit: chance(0.5) ? big(rand(20)) : undefined,
    mode: rand(256),
    exitCode: rand(2 ** 32) - 2 ** 31,
    exitArg: chance(0.5) ? rand(2 ** 32) - 2 ** 31 : undefined,
    vmSteps: rand(2 ** 31),
    vmInitStateHash: big(256),
    vmFinalStateHash: big(256),
  };
}

const statusChange = () => (['unchanged', 'frozen', 'deleted'] as const)[rand(3)]!;
const storage = () => ({ storageFeesCollected: coins(), storageFeesDue: chance(0.5) ? coins() : undefined, statusChange: statusChange() });
const action = () =>
  chance(0.3)
    ? undefined
    : {
        success: chance(0.5),
        valid: chance(0.5),
        noFunds: chance(0.5),
        statusChange: statusChange(),
        totalFwdFees: chance(0.5) ? coins() : undefined,
        totalActionFees: chance(0.5) ? coins() : undefined,
        resultCode: rand(2 ** 32) - 2 ** 31,
        resultArg: chance(0.5) ? rand(2 ** 32) - 2 ** 31 : undefined,
        totalActions: rand(65536),
        specActions: rand(65536),
        skippedActions: rand(65536),
        messagesCreated: rand(65536),
        actionListHash: big(256),
        totalMessageSize: { cells: big(rand(20)), bits: big(rand(20)) },
      };
const splitInfo = () => ({ currentShardPrefixLength: rand(64), accountSplitDepth: rand(64), thisAddress: big(256), siblingAddress: big(256) });

function description(kind: number, extra: boolean): TransactionDescription {
  if (kind === 0) {
    const bounce = rand(4);
    return {
      type: 'generic',
      creditFirst: chance(0.5),
      storagePhase: chance(0.5) ? storage() : undefined,
      creditPhase: chance(0.6) ? { dueFeesColelcted: chance(0.5) ? coins() : undefined, credit: currency(extra) } : undefined,
      computePhase: compute(),
      actionPhase: action(),
      aborted: chance(0.5),
      bouncePhase:
        bounce === 0
          ? undefined
          : bounce === 1
            ? { type: 'negative-funds' }
            : bounce === 2
              ? { type: 'no-funds', messageSize: { cells: big(8), bits: big(16) }, requiredForwardFees: coins() }
              : { type: 'ok', messageSize: { cells: big(8), bits: big(16) }, messageFees: coins(), forwardFees: coins() },
      destroyed: chance(0.5),
    };
  }
  if (kind === 1) return { type: 'storage', storagePhase: storage() };
  if (kind === 2) return { type: 'tick-tock', isTock: chance(0.5), storagePhase: storage(), computePhase: compute(), actionPhase: action(), aborted: chance(0.5), destroyed: chance(0.5) };
  // No action phase: @ton/core's writer stores split_prepare's inline, where the TL-B (and its own reader) has a ref.
  if (kind === 3) return { type: 'split-prepare', splitInfo: splitInfo(), storagePhase: chance(0.5) ? storage() : undefined, computePhase: compute(), actionPhase: undefined, aborted: chance(0.5), destroyed: chance(0.5) };
  return { type: 'split-install', splitInfo: splitInfo(), prepareTransaction: transaction(0, false), installed: chance(0.5) };
}

function transaction(kind: number, extra: boolean): Transaction {
  const outMessages = Dictionary.empty(Dictionary.Keys.Uint(15), {
    serialize: (src: Message, builder) => {
      // Init and body in refs or inline as they fit: both layouts occur.
      builder.storeRef(beginCell().store(storeMessage(src, { forceRef: chance(0.5) })));
    },
    parse: () => {
      throw new Error('unused');
    },
  });
  const outs = rand(5);
  for (let i = 0; i < outs; i++) outMessages.set(i, message(chance(0.8) ? 'internal' : 'external-out', extra && chance(0.5)));
  const inKind = rand(3);
  const tx = {
    address: big(256),
    lt: big(64),
    prevTransactionHash: big(256),
    prevTransactionLt: big(64),
    now: rand(2 ** 31),
    outMessagesCount: outs,
    oldStatus: (['uninitialized', 'frozen', 'active', 'non-existing'] as const)[rand(4)]!,
    endStatus: (['uninitialized', 'frozen', 'active', 'non-existing'] as const)[rand(4)]!,
    inMessage: inKind === 0 ? undefined : message(inKind === 1 ? 'internal' : 'external-in', extra),
    outMessages,
    totalFees: currency(extra && chance(0.5)),
    stateUpdate: { oldHash: randomBytes(32), newHash: randomBytes(32) },
    description: description(kind, extra),
  };
  return tx as unknown as Transaction;
}

const block = { workchain: 0, shard: '-9223372036854775808', seqno: 5, rootHash: Buffer.alloc(32), fileHash: Buffer.alloc(32) };

describe('parseTransaction (byte-level reader)', () => {
  it.each([
    ['ord', 0],
    ['storage', 1],
    ['tick_tock', 2],
    ['split_prepare', 3],
    ['split_install (left to @ton/core)', 4],
  ])('gives the rows @ton/core gives: %s', (_name, kind) => {
    for (let i = 0; i < 150; i++) {
      const extra = chance(0.15);
      const cell = beginCell().store(storeTransaction(transaction(kind, extra))).endCell();
      const fast = parseTransaction(cell, 0, block, 7);
      const slow = parseTransactionSlow(cell, 0, block, 7);
      expect(fast.row).toEqual(slow.row);
      expect(fast.address.equals(slow.address)).toBe(true);
      expect(fast.inMessage?.row ?? null).toEqual(slow.inMessage?.row ?? null);
      expect(fast.inMessage?.contents ?? null).toEqual(slow.inMessage?.contents ?? null);
      expect(fast.inMessage?.body.hash() ?? null).toEqual(slow.inMessage?.body.hash() ?? null);
      expect(fast.outMessages.map((m) => [m.row, m.contents, m.internal, m.body.hash()])).toEqual(slow.outMessages.map((m) => [m.row, m.contents, m.internal, m.body.hash()]));
    }
  });

  it('refuses what @ton/core refuses', () => {
    const cell = beginCell().storeUint(0x06, 4).storeUint(0, 256).endCell();
    expect(() => parseTransaction(cell, 0, block, 7)).toThrow();
  });
});

describe('BitCursor', () => {
  it('reads unaligned fields as a Slice does', () => {
    for (let i = 0; i < 200; i++) {
      const widths = Array.from({ length: 12 }, () => 1 + rand(48));
      const values = widths.map((w) => big(w));
      const leadBits = 1 + rand(7);
      const b = beginCell().storeUint(rand(2 ** leadBits), leadBits);
      const lead = b.bits;
      for (let k = 0; k < widths.length; k++) b.storeUint(values[k]!, widths[k]!);
      const bytes = randomBytes(32);
      b.storeBuffer(bytes);
      const cursor = new BitCursor(b.endCell());
      cursor.skip(lead);
      for (let k = 0; k < widths.length; k++) {
        const w = widths[k]!;
        expect(rand(2) === 0 ? BigInt(cursor.uint(w)) : cursor.uintBig(w)).toBe(values[k]);
      }
      expect(cursor.bytes(32).equals(bytes)).toBe(true);
      expect(cursor.remainingBits).toBe(0);
      expect(() => cursor.bit()).toThrow();
    }
  });

  it('reads signed integers', () => {
    const cell = beginCell().storeInt(-5, 8).storeInt(-(2 ** 31), 32).storeInt(2 ** 31 - 1, 32).storeInt(-1, 3).endCell();
    const c = new BitCursor(cell);
    expect([c.int(8), c.int(32), c.int(32), c.int(3)]).toEqual([-5, -(2 ** 31), 2 ** 31 - 1, -1]);
  });
});
