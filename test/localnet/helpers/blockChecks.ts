/**
 * Checks of a sealed block beyond what the strict loaders do: message descriptors whose
 * augmentations add up and name the block's own transactions, and a ValueFlow that agrees with
 * the states, the descriptors and the transactions and balances:
 *   from_prev + imported + fees_imported + created + minted + recovered
 *     = to_next + exported + fees_collected + burned
 */
import { Cell, loadMessage, loadTransaction, Slice } from '@ton/core';
import { StoredBlock } from '../../../src/localnet/ledger/store';
import { loadInMsg, loadMsgEnvelope, loadOutMsg, loadValueFlow } from '../../../src/tlb';
import { checkHashmapAug, grams, strictLoad } from './strictTlb';

export interface BlockMessages {
  /** Inbound messages by kind ('ext' | 'imm' | 'fin'), as message hashes. */
  in: Map<string, string>;
  /** Outbound messages by kind ('ext' | 'imm' | 'new'), as message hashes. */
  out: Map<string, string>;
}

interface Fees {
  fees: bigint;
  value: bigint;
}

function totalBalance(state: Cell): bigint {
  const s = state.refs[2].beginParse();
  s.skip(128);
  return s.loadCoins();
}

function rootOf(container: Cell): Cell | null {
  const s = container.beginParse();
  return s.loadBit() ? s.loadRef() : null;
}

/** Throws unless the block is consistent; returns its messages by hash. */
export function checkSealedBlock(block: StoredBlock, prevState: Cell): BlockMessages {
  strictLoad('loadBlock', block.root);
  const extra = block.root.refs[3];
  const txHashes = new Set(block.transactions.map((t) => t.hash.toString('hex')));
  const messages: BlockMessages = { in: new Map(), out: new Map() };

  let imported: Fees = { fees: 0n, value: 0n };
  const inRoot = rootOf(extra.refs[0]);
  if (inRoot) {
    imported = checkHashmapAug<Fees>(
      inRoot,
      256,
      (s: Slice) => ({ fees: s.loadCoins(), value: grams.read(s) }),
      (a, b) => ({ fees: a.fees + b.fees, value: a.value + b.value }),
      (a, b) => a.fees === b.fees && a.value === b.value,
      (key, value) => {
        const inMsg = loadInMsg(value);
        if (!txHashes.has(inMsg.transaction.hash().toString('hex'))) throw new Error('InMsg names a transaction of another block');
        const msg = inMsg.kind === 'ext' ? inMsg.msg : loadMsgEnvelope(inMsg.envelope.beginParse()).msg;
        if (BigInt('0x' + msg.hash().toString('hex')) !== key) throw new Error('InMsgDescr key is not the message hash');
        const tx = loadTransaction(inMsg.transaction.beginParse());
        if (!tx.inMessage || tx.raw.refs[0].refs[0].hash().toString('hex') !== msg.hash().toString('hex')) {
          throw new Error('InMsg transaction did not receive the message');
        }
        messages.in.set(msg.hash().toString('hex'), inMsg.kind);
      },
    );
  }

  let exported = 0n;
  const outRoot = rootOf(extra.refs[1]);
  if (outRoot) {
    exported = checkHashmapAug(outRoot, 256, grams.read, grams.add, grams.eq, (key, value, exportedHere) => {
      const outMsg = loadOutMsg(value);
      if (!txHashes.has(outMsg.transaction.hash().toString('hex'))) throw new Error('OutMsg names a transaction of another block');
      const msg = outMsg.kind === 'ext' ? outMsg.msg : loadMsgEnvelope(outMsg.envelope.beginParse()).msg;
      if (BigInt('0x' + msg.hash().toString('hex')) !== key) throw new Error('OutMsgDescr key is not the message hash');
      const info = loadMessage(msg.beginParse()).info;
      const expected = outMsg.kind === 'new' && info.type === 'internal' ? info.value.coins + info.ihrFee + info.forwardFee : 0n;
      if (exportedHere !== expected) throw new Error(`OutMsg ${outMsg.kind} exports ${exportedHere}, expected ${expected}`);
      messages.out.set(msg.hash().toString('hex'), outMsg.kind);
    });
  }

  let txFees = 0n;
  const accountsRoot = rootOf(extra.refs[2]);
  if (accountsRoot) txFees = checkHashmapAug(accountsRoot, 256, grams.read, grams.add, grams.eq, () => undefined);

  const flow = loadValueFlow(block.root.refs[1].beginParse());
  const c = (x: { coins: bigint } | null) => x?.coins ?? 0n;
  const expect = (name: string, got: bigint, want: bigint) => {
    if (got !== want)
      throw new Error(`block ${block.id.workchain}:${block.id.shard.toString(16)}:${block.id.seqno} ${name} ${got} != ${want}`);
  };
  expect('from_prev_blk', c(flow.fromPrevBlk), totalBalance(prevState));
  expect('to_next_blk', c(flow.toNextBlk), totalBalance(block.state));
  expect('imported', c(flow.imported), imported.value);
  expect('exported', c(flow.exported), exported);
  expect('fees_collected', c(flow.feesCollected), txFees + imported.fees);
  const incoming = c(flow.fromPrevBlk) + c(flow.imported) + c(flow.feesImported) + c(flow.created) + c(flow.minted) + c(flow.recovered);
  const outgoing = c(flow.toNextBlk) + c(flow.exported) + c(flow.feesCollected) + c(flow.burned);
  expect('value flow balance', incoming, outgoing);
  return messages;
}
