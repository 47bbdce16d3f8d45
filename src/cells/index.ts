export { BocNodeCache, serializeBoc, serializeProofs } from './boc';
export type { ProofSpec } from './boc';
export { crc32cValue, crc32cBytes } from './crc32c';
export { storeLabel, loadLabel, keyBit, keyBits, lengthFieldBits } from './labels';
export type { Label } from './labels';
export { PersistentDict } from './persistentDict';
export type { Augmentation, DictSpec } from './persistentDict';
export { dictEntriesAfter, dictLookupPath, dictLookupPathInline, forEachDictLeaf } from './dictPath';
export type { DictPath } from './dictPath';
export { prunedBranch, pruneTree, merkleProof, merkleUpdate, merkleUpdateStub, merkleProofContent, collectSubtree } from './merkle';
export type { KeepSet } from './merkle';
export { CellInterner } from './internedBoc';
export {
  bagOfCellsSteps,
  bocBase64,
  CellNodes,
  finishInSlices,
  finishNow,
  optionalBocBase64,
  paddedCellData,
  serializeBocRoots,
  writeBagOfCells,
  type BocNode,
  type BocOptions,
  type SteppedWork,
} from './bocWriter';
export { hashmapLookup } from './hashmapLookup';
export { nativeSha256, useNativeCellHashing } from './nativeHashing';
export { useFastBits } from './fastBits';
export { cellStats, type CellStats } from './cellStats';
export { decodeBocFast } from './fastBoc';
export { decodeAuthenticatedBoc } from './lazyCells';
export { useLeanCells, useCoreCells } from './useLeanCells';
export { BitCursor, CursorError } from './bitCursor';
export { dictLookupCursor, forEachDictLeafCursor, skipCurrencyCollection } from './dictCursor';
