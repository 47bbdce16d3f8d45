export { serializeBoc } from './boc';
export { storeLabel, loadLabel, keyBit, keyBits, lengthFieldBits } from './labels';
export type { Label } from './labels';
export { PersistentDict } from './persistentDict';
export type { Augmentation, DictSpec } from './persistentDict';
export { dictLookupPath, dictLookupPathInline } from './dictPath';
export type { DictPath } from './dictPath';
export { prunedBranch, pruneTree, merkleProof, merkleUpdateStub, merkleProofContent, collectSubtree } from './merkle';
export type { KeepSet } from './merkle';
