import { type Account, type Address, Cell, CellType, loadAccount } from '@ton/core';
import { dictLookupCursor, skipCurrencyCollection } from '../cells';
import { loadShardStateHeader } from '../tlb';

/**
 * Account states out of a verified block's own `state_update` (`MERKLE_UPDATE ShardState`):
 * the update's new tree reveals every cell the block changed, so the ShardAccount of each account
 * the block touched is there, and its cells are as proven as the block itself (their hashes lead
 * to the block's root hash). What the update prunes (an unchanged code or data cell) comes from
 * a memory of complete cells by hash, else from a proven lite read (the caller's fallback).
 */

/** An account as the state after its block holds it. */
export interface StateAccount {
  /** The Account cell (null: `account_none`, or no entry: the account does not exist). */
  readonly accountCell: Cell | null;
  readonly account: Account | null;
  readonly lastTransaction: { lt: bigint; hash: Buffer } | null;
  /** The account's code and data, complete (null when it has none). */
  readonly code: Cell | null;
  readonly data: Cell | null;
}

/** The revealed accounts dictionary of a block's new state; null when the block does not carry it (a hash-only update, a split state). */
export function updatedAccounts(stateUpdate: Cell): { root: Cell | null } | null {
  if (stateUpdate.type !== CellType.MerkleUpdate || stateUpdate.refs.length !== 2) return null;
  const next = stateUpdate.refs[1]!;
  if (next.isExotic) return null;
  try {
    const header = loadShardStateHeader(next.beginParse());
    if (header.accounts.isExotic) return null;
    const container = header.accounts.beginParse();
    return { root: container.loadBit() ? container.loadRef() : null };
  } catch {
    return null;
  }
}

/**
 * Complete cells by level-0 hash, bounded; filled from block updates and from proven reads.
 * A cell of an update whose own bits changed but which keeps an unchanged child (a jetton
 * wallet's or master's data holds the wallet code as a reference, pruned in every update) is
 * rebuilt: each pruned branch is replaced by the remembered cell of its hash, and the rebuilt
 * cell counts only when its hash is the update's (so it is the very cell the verified block holds).
 */
export class CellMemory {
  private readonly cells = new Map<string, Cell>();

  constructor(private readonly maxCells = 4096) {}

  /** `cell` if complete (no pruned branch inside), else the remembered cell of its hash or `cell` rebuilt from remembered ones, else undefined. */
  complete(cell: Cell): Cell | undefined {
    const key = cell.hash(0).toString('latin1');
    if (cell.level() === 0 && !cell.isExotic) {
      this.remember(key, cell);
      return cell;
    }
    const known = this.cells.get(key);
    if (known) {
      this.cells.delete(key);
      this.cells.set(key, known);
      return known;
    }
    // A pruned branch not remembered, or another exotic cell: nothing to rebuild it from.
    if (cell.isExotic) return undefined;
    const refs: Cell[] = [];
    for (const ref of cell.refs) {
      // Level 0 is complete (a library cell too); a level above 0 holds a pruned branch.
      const full = ref.level() === 0 ? ref : this.complete(ref);
      if (!full) return undefined;
      refs.push(full);
    }
    const rebuilt = new Cell({ bits: cell.bits, refs });
    if (!rebuilt.hash(0).equals(cell.hash(0))) return undefined;
    this.remember(key, rebuilt);
    return rebuilt;
  }

  remember(key: string, cell: Cell): void {
    if (this.cells.has(key)) this.cells.delete(key);
    else if (this.cells.size >= this.maxCells) this.cells.delete(this.cells.keys().next().value!);
    this.cells.set(key, cell);
  }

  rememberCell(cell: Cell | null | undefined): void {
    if (cell && cell.level() === 0 && !cell.isExotic) this.remember(cell.hash(0).toString('latin1'), cell);
  }
}

/**
 * `address`'s state in the revealed accounts dictionary `root`, with its last transaction at
 * `lastLt`; undefined when the update does not reveal all of it (a pruned path, a pruned code or
 * data cell not remembered, a last transaction other than `lastLt`): then the pool is asked.
 */
export function accountInUpdate(root: Cell | null, address: Address, lastLt: bigint, memory: CellMemory): StateAccount | undefined {
  try {
    // With a cursor, not Slices: this runs for every account every block touched.
    const value = dictLookupCursor(root, 256, address.hash);
    // Absent from a revealed path: the block's state proves the account does not exist.
    if (!value) return { accountCell: null, account: null, lastTransaction: null, code: null, data: null };
    // The aug extra `depth_balance$_ split_depth:(#<= 30) balance:CurrencyCollection`, then
    // `account_descr$_ account:^Account last_trans_hash:bits256 last_trans_lt:uint64`.
    if (value.uint(5) > 30) return undefined;
    skipCurrencyCollection(value);
    const entry = { account: value.ref(), lastTransHash: value.bytes(32), lastTransLt: value.uintBig(64) };
    if (entry.lastTransLt !== lastLt || entry.account.isExotic) return undefined;
    const slice = entry.account.beginParse();
    const account = slice.loadBit() ? loadAccount(slice) : null;
    const last = { lt: entry.lastTransLt, hash: entry.lastTransHash };
    if (!account) return { accountCell: entry.account, account: null, lastTransaction: last, code: null, data: null };
    const state = account.storage.state;
    let code: Cell | null = null;
    let data: Cell | null = null;
    if (state.type === 'active') {
      if (state.state.code) {
        const full = memory.complete(state.state.code);
        if (!full) return undefined;
        code = full;
      }
      if (state.state.data) {
        const full = memory.complete(state.state.data);
        if (!full) return undefined;
        data = full;
      }
    }
    return { accountCell: entry.account, account, lastTransaction: last, code, data };
  } catch {
    // A path into a pruned branch, a pruned extra-currency or library dictionary: ask the pool.
    return undefined;
  }
}
