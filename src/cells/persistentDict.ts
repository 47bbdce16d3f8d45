import { beginCell, Builder, Cell, Slice } from '@ton/core';
import { keyBit, keyBits, loadLabel, storeLabel } from './labels';

/** How an augmented dictionary combines and stores its extras (the `Y` of `HashmapAug n X Y`). */
export interface Augmentation<E> {
  readonly zero: E;
  combine(left: E, right: E): E;
  store(extra: E, builder: Builder): void;
}

/** Layout of one dictionary type: key length, how a value is written, and optional extras. */
export interface DictSpec<V, E> {
  readonly keyBits: number;
  storeValue(value: V, builder: Builder): void;
  /** Present for HashmapAug dictionaries; absent for plain Hashmap ones. */
  readonly aug?: Augmentation<E>;
}

class Leaf<V, E> {
  cachedStart = -1;
  cachedCell: Cell | null = null;
  constructor(
    readonly key: bigint,
    readonly value: V,
    readonly extra: E,
  ) {}
}

class Fork<V, E> {
  cachedStart = -1;
  cachedCell: Cell | null = null;
  constructor(
    /** Absolute index of the bit that separates `left` (0) from `right` (1). */
    readonly bit: number,
    readonly anyKey: bigint,
    readonly left: Node<V, E>,
    readonly right: Node<V, E>,
    readonly extra: E,
  ) {}
}

type Node<V, E> = Leaf<V, E> | Fork<V, E>;

/**
 * An immutable (persistent) crit-bit tree that serializes itself as a TVM `Hashmap` or
 * `HashmapAug` with the shortest labels. Updates copy only the path to the changed key, and
 * every node caches the cell it was serialized to, so re-serializing after k changes builds
 * O(k * depth) new cells however large the dictionary is.
 */
export class PersistentDict<V, E = null> {
  private constructor(
    readonly spec: DictSpec<V, E>,
    private readonly root: Node<V, E> | null,
    readonly size: number,
  ) {}

  static empty<V, E = null>(spec: DictSpec<V, E>): PersistentDict<V, E> {
    return new PersistentDict(spec, null, 0);
  }

  static from<V, E = null>(spec: DictSpec<V, E>, entries: Iterable<{ key: bigint; value: V; extra: E }>): PersistentDict<V, E> {
    let dict = PersistentDict.empty(spec);
    for (const e of entries) dict = dict.set(e.key, e.value, e.extra);
    return dict;
  }

  /**
   * The dictionary whose root edge cell is `root` (a `Hashmap n X` / `HashmapAug n X Y`; null:
   * empty), each node keeping the very cell it was read from. A dictionary rebuilt key by key
   * (`from`) has no cells yet, so its first `rootCell()` builds and hashes one cell per entry and
   * fork: for a restored chain's ~100 000 accounts that was ~4 s of cells and ~4 s of garbage
   * collection in the first seal after a restore, while the chain's thread served nobody. A
   * Hashmap's shape is fixed by its keys (a fork at their first differing bit, the shortest
   * labels), so the nodes read here are the ones `set` would make; `leafOf` reads a leaf's value
   * and extra from the slice after its label. A fork's extra is combined from its children, as
   * `set` makes it. Cells the caller did not make itself must be checked first (this trusts them).
   */
  static fromCell<V, E = null>(
    spec: DictSpec<V, E>,
    root: Cell | null,
    leafOf: (key: bigint, value: Slice) => { value: V; extra: E },
  ): PersistentDict<V, E> {
    if (!root) return PersistentDict.empty(spec);
    const dict = PersistentDict.empty(spec);
    const n = spec.keyBits;
    let size = 0;
    const read = (cell: Cell, start: number, prefix: bigint): Node<V, E> => {
      const slice = cell.beginParse();
      const label = loadLabel(slice, n - start);
      const key = (prefix << BigInt(label.length)) | label.value;
      const at = start + label.length;
      let node: Node<V, E>;
      if (at === n) {
        const { value, extra } = leafOf(key, slice);
        node = new Leaf(key, value, extra);
        size++;
      } else {
        const left = read(slice.loadRef(), at + 1, key << 1n);
        const right = read(slice.loadRef(), at + 1, (key << 1n) | 1n);
        node = dict.makeFork(at, left, right);
      }
      node.cachedStart = start;
      node.cachedCell = cell;
      return node;
    };
    const top = read(root, 0, 0n);
    return new PersistentDict(spec, top, size);
  }

  get isEmpty(): boolean {
    return this.root === null;
  }

  /** Extra of the whole dictionary (the zero extra when empty). */
  get extra(): E {
    return this.root ? this.root.extra : this.augZero();
  }

  get(key: bigint): { value: V; extra: E } | undefined {
    let node = this.root;
    const n = this.spec.keyBits;
    while (node) {
      if (node instanceof Leaf) {
        return node.key === key ? { value: node.value, extra: node.extra } : undefined;
      }
      node = keyBit(key, n, node.bit) ? node.right : node.left;
    }
    return undefined;
  }

  has(key: bigint): boolean {
    return this.get(key) !== undefined;
  }

  set(key: bigint, value: V, extra: E): PersistentDict<V, E> {
    this.checkKey(key);
    const leaf = new Leaf(key, value, extra);
    if (!this.root) return new PersistentDict(this.spec, leaf, 1);
    const existed = this.has(key);
    return new PersistentDict(this.spec, this.insert(this.root, leaf), existed ? this.size : this.size + 1);
  }

  delete(key: bigint): PersistentDict<V, E> {
    if (!this.root || !this.has(key)) return this;
    return new PersistentDict(this.spec, this.remove(this.root, key), this.size - 1);
  }

  /** Entries in ascending key order. */
  *entries(): Generator<{ key: bigint; value: V; extra: E }> {
    const stack: Node<V, E>[] = this.root ? [this.root] : [];
    while (stack.length > 0) {
      const node = stack.pop() as Node<V, E>;
      if (node instanceof Leaf) {
        yield { key: node.key, value: node.value, extra: node.extra };
      } else {
        stack.push(node.right, node.left);
      }
    }
  }

  /** The root edge cell (`Hashmap n X` / `HashmapAug n X Y`), or null when empty. */
  rootCell(): Cell | null {
    return this.root ? this.cellOf(this.root, 0) : null;
  }

  /** `HashmapE n X`: `hme_empty$0` or `hme_root$1 ^root`. */
  storeHashmapE(builder: Builder): void {
    const root = this.rootCell();
    if (root) builder.storeBit(true).storeRef(root);
    else builder.storeBit(false);
  }

  /** `HashmapAugE n X Y`: `ahme_empty$0 extra` or `ahme_root$1 ^root extra`. */
  storeHashmapAugE(builder: Builder): void {
    const aug = this.requireAug();
    this.storeHashmapE(builder);
    aug.store(this.extra, builder);
  }

  /** A non-empty dictionary written inline (its root edge inside the enclosing cell). */
  storeInline(builder: Builder): void {
    if (!this.root) throw new Error('an inline Hashmap cannot be empty');
    this.storeEdge(this.root, 0, builder);
  }

  private insert(node: Node<V, E>, leaf: Leaf<V, E>): Node<V, E> {
    const n = this.spec.keyBits;
    const other = node instanceof Leaf ? node.key : node.anyKey;
    const diff = firstDifferingBit(leaf.key, other, n);
    if (node instanceof Leaf) {
      if (diff < 0) return leaf;
      return this.fork(diff, leaf, node);
    }
    if (diff >= 0 && diff < node.bit) {
      return this.fork(diff, leaf, node);
    }
    if (keyBit(leaf.key, n, node.bit)) {
      return this.makeFork(node.bit, node.left, this.insert(node.right, leaf));
    }
    return this.makeFork(node.bit, this.insert(node.left, leaf), node.right);
  }

  private remove(node: Node<V, E>, key: bigint): Node<V, E> | null {
    if (node instanceof Leaf) return node.key === key ? null : node;
    const n = this.spec.keyBits;
    if (keyBit(key, n, node.bit)) {
      const right = this.remove(node.right, key);
      if (right === node.right) return node;
      return right ? this.makeFork(node.bit, node.left, right) : node.left;
    }
    const left = this.remove(node.left, key);
    if (left === node.left) return node;
    return left ? this.makeFork(node.bit, left, node.right) : node.right;
  }

  /** A fork at `bit` over a new leaf and an existing subtree, ordered by the leaf's bit. */
  private fork(bit: number, leaf: Leaf<V, E>, existing: Node<V, E>): Fork<V, E> {
    return keyBit(leaf.key, this.spec.keyBits, bit) ? this.makeFork(bit, existing, leaf) : this.makeFork(bit, leaf, existing);
  }

  private makeFork(bit: number, left: Node<V, E>, right: Node<V, E>): Fork<V, E> {
    const anyKey = left instanceof Leaf ? left.key : left.anyKey;
    const extra = this.spec.aug ? this.spec.aug.combine(left.extra, right.extra) : left.extra;
    return new Fork(bit, anyKey, left, right, extra);
  }

  private cellOf(node: Node<V, E>, start: number): Cell {
    if (node.cachedStart === start && node.cachedCell) return node.cachedCell;
    const builder = beginCell();
    this.storeEdge(node, start, builder);
    const cell = builder.endCell();
    node.cachedStart = start;
    node.cachedCell = cell;
    return cell;
  }

  private storeEdge(node: Node<V, E>, start: number, builder: Builder): void {
    const n = this.spec.keyBits;
    if (node instanceof Leaf) {
      storeLabel(builder, keyBits(node.key, n, start, n), n - start, n - start);
      if (this.spec.aug) this.spec.aug.store(node.extra, builder);
      this.spec.storeValue(node.value, builder);
      return;
    }
    storeLabel(builder, keyBits(node.anyKey, n, start, node.bit), node.bit - start, n - start);
    builder.storeRef(this.cellOf(node.left, node.bit + 1));
    builder.storeRef(this.cellOf(node.right, node.bit + 1));
    if (this.spec.aug) this.spec.aug.store(node.extra, builder);
  }

  private checkKey(key: bigint): void {
    if (key < 0n || key >> BigInt(this.spec.keyBits) !== 0n) {
      throw new Error(`dictionary key does not fit in ${this.spec.keyBits} bits`);
    }
  }

  private augZero(): E {
    return this.spec.aug ? this.spec.aug.zero : (null as E);
  }

  private requireAug(): Augmentation<E> {
    if (!this.spec.aug) throw new Error('dictionary has no augmentation');
    return this.spec.aug;
  }
}

function firstDifferingBit(a: bigint, b: bigint, n: number): number {
  const x = a ^ b;
  if (x === 0n) return -1;
  return n - x.toString(2).length;
}
