import { beginCell, Builder, Slice } from '@ton/core';
import { CurrencyCollection, loadCurrencyCollection, storeCurrencyCollection } from './common';

/** `value_flow#b8e48dfb` (or `value_flow_v2#3ebf98b7` when `burned` is set). */
export interface ValueFlow {
  fromPrevBlk: CurrencyCollection;
  toNextBlk: CurrencyCollection;
  imported: CurrencyCollection;
  exported: CurrencyCollection;
  feesCollected: CurrencyCollection;
  burned: CurrencyCollection | null;
  feesImported: CurrencyCollection;
  recovered: CurrencyCollection;
  created: CurrencyCollection;
  minted: CurrencyCollection;
}

export function storeValueFlow(src: ValueFlow) {
  return (b: Builder) => {
    b.storeUint(src.burned ? 0x3ebf98b7 : 0xb8e48dfb, 32);
    b.storeRef(
      beginCell()
        .store(storeCurrencyCollection(src.fromPrevBlk))
        .store(storeCurrencyCollection(src.toNextBlk))
        .store(storeCurrencyCollection(src.imported))
        .store(storeCurrencyCollection(src.exported)),
    );
    b.store(storeCurrencyCollection(src.feesCollected));
    if (src.burned) b.store(storeCurrencyCollection(src.burned));
    b.storeRef(
      beginCell()
        .store(storeCurrencyCollection(src.feesImported))
        .store(storeCurrencyCollection(src.recovered))
        .store(storeCurrencyCollection(src.created))
        .store(storeCurrencyCollection(src.minted)),
    );
  };
}

export function loadValueFlow(s: Slice): ValueFlow {
  const tag = s.loadUint(32);
  if (tag !== 0xb8e48dfb && tag !== 0x3ebf98b7) throw new Error(`ValueFlow: bad tag 0x${tag.toString(16)}`);
  const r1 = s.loadRef().beginParse();
  const fromPrevBlk = loadCurrencyCollection(r1);
  const toNextBlk = loadCurrencyCollection(r1);
  const imported = loadCurrencyCollection(r1);
  const exported = loadCurrencyCollection(r1);
  const feesCollected = loadCurrencyCollection(s);
  const burned = tag === 0x3ebf98b7 ? loadCurrencyCollection(s) : null;
  const r2 = s.loadRef().beginParse();
  return {
    fromPrevBlk,
    toNextBlk,
    imported,
    exported,
    feesCollected,
    burned,
    feesImported: loadCurrencyCollection(r2),
    recovered: loadCurrencyCollection(r2),
    created: loadCurrencyCollection(r2),
    minted: loadCurrencyCollection(r2),
  };
}
