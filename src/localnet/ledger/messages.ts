/**
 * In and out message descriptors of the blocks of one round. Every cascade runs to its end
 * within a round, so a message is created and delivered in the same round: in one block
 * (`msg_export_imm` / `msg_import_imm`) or across two shards (`msg_export_new` in the
 * sender's block, `msg_import_fin` in the receiver's). Nothing waits in an outbound queue.
 */
import { beginCell, Builder, Cell, CurrencyCollection, loadCommonMessageInfo } from '@ton/core';
import { PersistentDict } from '../../cells';
import {
  addCurrency,
  ImportFees,
  InMsg,
  OutMsg,
  storeCurrencyCollection,
  storeImportFees,
  storeInMsg,
  storeMsgEnvelope,
  storeOutMsg,
  zeroCurrency,
} from '../../tlb';
import { ExecutedTransaction } from './sandboxAdapter';

export interface MessageDescriptors {
  /** Cell holding InMsgDescr (`HashmapAugE 256 InMsg ImportFees`). */
  inMsgDescr: Cell;
  /** Cell holding OutMsgDescr (`HashmapAugE 256 OutMsg CurrencyCollection`). */
  outMsgDescr: Cell;
  importFees: ImportFees;
  exported: CurrencyCollection;
}

/** `interm_addr_regular` use_dest_bits of an envelope: at the source, and at the destination. */
const AT_SOURCE = 0;
const AT_DESTINATION = 96;

type InDict = PersistentDict<Cell, ImportFees>;
type OutDict = PersistentDict<Cell, CurrencyCollection>;

function emptyInDict(): InDict {
  return PersistentDict.empty({
    keyBits: 256,
    storeValue: (inMsg: Cell, b: Builder) => {
      b.storeSlice(inMsg.beginParse());
    },
    aug: {
      zero: { feesCollected: 0n, valueImported: zeroCurrency() },
      combine: (a: ImportFees, c: ImportFees) => ({
        feesCollected: a.feesCollected + c.feesCollected,
        valueImported: addCurrency(a.valueImported, c.valueImported),
      }),
      store: (e: ImportFees, b: Builder) => {
        b.store(storeImportFees(e));
      },
    },
  });
}

function emptyOutDict(): OutDict {
  return PersistentDict.empty({
    keyBits: 256,
    storeValue: (outMsg: Cell, b: Builder) => {
      b.storeSlice(outMsg.beginParse());
    },
    aug: {
      zero: zeroCurrency(),
      combine: addCurrency,
      store: (e: CurrencyCollection, b: Builder) => {
        b.store(storeCurrencyCollection(e));
      },
    },
  });
}

/**
 * Descriptors for every block of a round. `blockOf` names the block (shard chain) a
 * transaction belongs to; the result is keyed the same way.
 */
export function buildMessageDescriptors(
  txs: readonly ExecutedTransaction[],
  blockOf: (tx: ExecutedTransaction) => string,
): Map<string, MessageDescriptors> {
  const consumer = new Map<string, ExecutedTransaction>();
  const producer = new Map<string, ExecutedTransaction>();
  for (const tx of txs) {
    if (tx.inMessage) consumer.set(tx.inMessage.hash().toString('hex'), tx);
    for (const out of tx.outMessages) producer.set(out.hash().toString('hex'), tx);
  }
  const envelopes = new Map<string, Cell>();
  const envelopeOf = (msg: Cell, fwdFeeRemaining: bigint): Cell => {
    const key = msg.hash().toString('hex');
    let env = envelopes.get(key);
    if (!env) {
      env = beginCell()
        .store(storeMsgEnvelope({ curUseDestBits: AT_SOURCE, nextUseDestBits: AT_DESTINATION, fwdFeeRemaining, msg }))
        .endCell();
      envelopes.set(key, env);
    }
    return env;
  };
  const inMsgCells = new Map<string, Cell>();
  const ins = new Map<string, InDict>();
  const outs = new Map<string, OutDict>();
  const inDictOf = (block: string) => ins.get(block) ?? emptyInDict();
  const outDictOf = (block: string) => outs.get(block) ?? emptyOutDict();

  for (const tx of txs) {
    if (!tx.inMessage) continue;
    const block = blockOf(tx);
    const key = tx.inMessage.hash().toString('hex');
    // The header only: loadMessage also copies the body (and any StateInit) into cells of its own,
    // hashed as they are made, for nothing here (a seal's messages are the emulator's, valid).
    const info = loadCommonMessageInfo(tx.inMessage.beginParse());
    let inMsg: InMsg;
    let fees: ImportFees;
    if (info.type === 'external-in') {
      inMsg = { kind: 'ext', msg: tx.inMessage, transaction: tx.cell };
      fees = { feesCollected: 0n, valueImported: zeroCurrency() };
    } else if (info.type === 'internal') {
      const from = producer.get(key);
      const envelope = envelopeOf(tx.inMessage, info.forwardFee);
      if (from && blockOf(from) === block) {
        inMsg = { kind: 'imm', envelope, transaction: tx.cell, fwdFee: info.forwardFee };
        fees = { feesCollected: info.forwardFee, valueImported: zeroCurrency() };
      } else {
        inMsg = { kind: 'fin', envelope, transaction: tx.cell, fwdFee: info.forwardFee };
        fees = { feesCollected: info.forwardFee, valueImported: carried(info.value, info.ihrFee, info.forwardFee) };
      }
    } else {
      throw new Error('a transaction cannot receive an outbound external message');
    }
    const cell = beginCell().store(storeInMsg(inMsg)).endCell();
    inMsgCells.set(key, cell);
    ins.set(block, inDictOf(block).set(BigInt('0x' + key), cell, fees));
  }

  for (const tx of txs) {
    const block = blockOf(tx);
    for (const msg of tx.outMessages) {
      const key = msg.hash().toString('hex');
      const info = loadCommonMessageInfo(msg.beginParse());
      let outMsg: OutMsg;
      let exported = zeroCurrency();
      if (info.type === 'external-out') {
        outMsg = { kind: 'ext', msg, transaction: tx.cell };
      } else if (info.type === 'internal') {
        const to = consumer.get(key);
        const envelope = envelopeOf(msg, info.forwardFee);
        const reimport = inMsgCells.get(key);
        if (to && blockOf(to) === block && reimport) {
          outMsg = { kind: 'imm', envelope, transaction: tx.cell, reimport };
        } else {
          outMsg = { kind: 'new', envelope, transaction: tx.cell };
          exported = carried(info.value, info.ihrFee, info.forwardFee);
        }
      } else {
        throw new Error('a transaction cannot send an inbound external message');
      }
      const cell = beginCell().store(storeOutMsg(outMsg)).endCell();
      outs.set(block, outDictOf(block).set(BigInt('0x' + key), cell, exported));
    }
  }

  const out = new Map<string, MessageDescriptors>();
  for (const block of new Set([...ins.keys(), ...outs.keys()])) {
    const inDict = inDictOf(block);
    const outDict = outDictOf(block);
    out.set(block, {
      inMsgDescr: beginCell()
        .store((b) => inDict.storeHashmapAugE(b))
        .endCell(),
      outMsgDescr: beginCell()
        .store((b) => outDict.storeHashmapAugE(b))
        .endCell(),
      importFees: inDict.extra,
      exported: outDict.extra,
    });
  }
  return out;
}

/** What a message takes out of its sender's shard: value, IHR fee and the forwarding fee left. */
function carried(value: CurrencyCollection, ihrFee: bigint, fwdFee: bigint): CurrencyCollection {
  return addCurrency(value, { coins: ihrFee + fwdFee });
}
