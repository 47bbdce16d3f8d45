/** Public libraries of the masterchain state, rebuilt only when the emulator's set changes. */
import { beginCell, Cell, Dictionary } from '@ton/core';
import { buildLibraries } from './builder';

export class LibraryIndex {
  private hash = '';
  private map = new Map<string, Cell>();
  private root: Cell | null = null;

  /** Libraries by hex hash. */
  get byHash(): ReadonlyMap<string, Cell> {
    return this.map;
  }

  /** The state's `libraries` HashmapE root (null when empty). */
  get stateRoot(): Cell | null {
    return this.root;
  }

  /** Re-reads the emulator's library dictionary (`Dictionary<hash, Cell>` stored directly). */
  refresh(libs: Cell | undefined, publisher: Buffer): void {
    const hash = libs ? libs.hash().toString('hex') : '';
    if (hash === this.hash) return;
    this.hash = hash;
    const map = new Map<string, Cell>();
    if (libs) {
      const dict = libs.beginParse().loadDictDirect(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
      for (const [key, lib] of dict) map.set(key.toString('hex'), lib);
    }
    this.map = map;
    this.root = buildLibraries(map, publisher);
  }
}

/** The emulator's library dictionary with `code` added (it is public once the next block is sealed). */
export function withLibrary(libs: Cell | undefined, code: Cell): Cell {
  const keyType = Dictionary.Keys.Buffer(32);
  const valueType = Dictionary.Values.Cell();
  const dict = libs ? libs.beginParse().loadDictDirect(keyType, valueType) : Dictionary.empty(keyType, valueType);
  dict.set(code.hash(), code);
  return beginCell().storeDictDirect(dict).endCell();
}
