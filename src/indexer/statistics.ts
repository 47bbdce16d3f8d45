/**
 * Planner statistics for the index's tables. PostgreSQL picks a statement's plan from each
 * table's statistics (its row count, each column's histogram), which only ANALYZE writes. A real
 * server's autovacuum runs it when a table has changed enough, if autovacuum is on; the embedded
 * PGlite has no autovacuum at all (a single-user backend: `show autovacuum` says on, but nothing
 * launches it, and its tables keep `reltuples = -1`, never analyzed). Without statistics the
 * planner guesses, and on a filled index its guesses were slow: on the v3 bench's 104 387
 * transactions, before any ANALYZE, `messages` with the widest range and offset 10 000 timed out
 * at 3 s (504) and `adjacentTransactions` took 1.7 s; after one, 229 ms and 7 ms
 * (docs/benchmarks.md, "The indexed v3 API").
 *
 * So the writer analyzes the tables it grows itself, on a schedule that grows with them: a group of
 * tables (a table the pipeline counts rows of, with those that grow with it) once it has been
 * written MIN_ROWS rows, then each time its rows have grown GROWTH times since its last ANALYZE.
 * An ANALYZE samples a bounded number of rows (300 x the statistics target) whatever the table's
 * size, ~0.2-1.2 s on that bench's larger tables, so a table of N rows costs ~log4(N) of them over
 * its life. Stale statistics between two of them are mostly harmless here: the planner scales the
 * row count by the table's current size, and reads the index for values past a histogram's end
 * (the lt and utime columns only grow).
 */
import type { WrittenRows } from '../indexdb';

/** The tables whose written rows the pipeline counts, and the tables analyzed with each. */
export const STATISTICS_GROUPS: Readonly<Record<keyof WrittenRows, readonly string[]>> = {
  blocks: ['blocks', 'shard_state'],
  transactions: ['transactions', 'jetton_wallets', 'jetton_transfers', 'jetton_burns', 'nft_items', 'nft_transfers'],
  messages: ['messages', 'message_contents'],
  account_states: ['account_states', 'latest_account_states'],
  traces: ['traces', 'trace_edges', 'actions'],
};

export type StatisticsGroup = keyof WrittenRows;

const GROUPS = Object.keys(STATISTICS_GROUPS) as StatisticsGroup[];

/** Rows a group is written before its first ANALYZE (small tables are planned well enough without). */
export const MIN_ROWS = 1000;
/** How many times its rows must have grown since the last ANALYZE for the next. */
export const GROWTH = 4;

/**
 * When each group is due (pure: the counts in, the groups out). `baseline`: each group's rows as
 * the database's statistics say at start (pg_class.reltuples of its first table), or null where
 * it was never analyzed, which makes it due at once (an index filled before this schedule
 * existed, or a new one: analyzing its empty tables costs milliseconds). It also says when each of
 * VACUUMED_TABLES is due for a VACUUM (vacuumDue), from the same commits' counts.
 */
export class StatisticsSchedule {
  /** Rows of the group at its last ANALYZE (as far as this process knows). */
  private readonly analyzedRows = new Map<StatisticsGroup, number>();
  /** Rows written since then. */
  private readonly written = new Map<StatisticsGroup, number>();
  private readonly neverAnalyzed = new Set<StatisticsGroup>();
  /** Each VACUUMED_TABLES table's rows at its last VACUUM by this process (absent: none yet, so one is due). */
  private readonly vacuumedRows = new Map<VacuumedTable, number>();
  /** Their rows written since then. */
  private readonly writtenSinceVacuum = new Map<VacuumedTable, number>(VACUUMED_TABLES.map((table) => [table, 0]));

  constructor(baseline: Readonly<Partial<Record<StatisticsGroup, number | null>>>) {
    for (const group of GROUPS) {
      const rows = baseline[group];
      if (rows === null || rows === undefined) this.neverAnalyzed.add(group);
      this.analyzedRows.set(group, Math.max(0, rows ?? 0));
      this.written.set(group, 0);
    }
  }

  /** A commit's rows. */
  add(counts: Readonly<WrittenRows>): void {
    for (const group of GROUPS) this.written.set(group, this.written.get(group)! + counts[group]);
    for (const table of VACUUMED_TABLES) this.writtenSinceVacuum.set(table, this.writtenSinceVacuum.get(table)! + counts[table]);
  }

  /**
   * The VACUUMED_TABLES due for a VACUUM: each once at start (the rows written before this process
   * may never have been vacuumed; where they were, it reads only the pages written since), then on
   * autovacuum's insert schedule, VACUUM_MIN_ROWS + VACUUM_SCALE x its rows at the last one.
   */
  vacuumDue(): VacuumedTable[] {
    return VACUUMED_TABLES.filter((table) => {
      const before = this.vacuumedRows.get(table);
      return before === undefined || this.writtenSinceVacuum.get(table)! >= VACUUM_MIN_ROWS + VACUUM_SCALE * before;
    });
  }

  /** Rows written to `table` since its last VACUUM. */
  writtenSinceLastVacuum(table: VacuumedTable): number {
    return this.writtenSinceVacuum.get(table)!;
  }

  /** `table` was vacuumed: as `analyzed`, the rows counted before it began are spent; it holds `rowsNow`. */
  vacuumed(table: VacuumedTable, rowsWrittenBefore: number, rowsNow: number): void {
    this.vacuumedRows.set(table, Math.max(0, rowsNow));
    this.writtenSinceVacuum.set(table, this.writtenSinceVacuum.get(table)! - rowsWrittenBefore);
  }

  /** The groups due for an ANALYZE now. */
  due(): StatisticsGroup[] {
    return GROUPS.filter((group) => {
      if (this.neverAnalyzed.has(group)) return true;
      const written = this.written.get(group)!;
      const before = this.analyzedRows.get(group)!;
      return written >= MIN_ROWS && before + written >= GROWTH * before;
    });
  }

  /**
   * `group` was analyzed: `rowsWrittenBefore` of the rows counted since its last ANALYZE were in
   * before this one began (the rest came during it and count towards the next), and its first
   * table now holds `rowsNow` rows by the statistics the ANALYZE wrote (pg_class.reltuples: the
   * database's count, which also knows rows this process did not write, e.g. an index filled
   * before it started).
   */
  analyzed(group: StatisticsGroup, rowsWrittenBefore: number, rowsNow: number): void {
    this.neverAnalyzed.delete(group);
    this.analyzedRows.set(group, Math.max(0, rowsNow));
    this.written.set(group, this.written.get(group)! - rowsWrittenBefore);
  }

  /** Rows written to `group` since its last ANALYZE. */
  writtenSince(group: StatisticsGroup): number {
    return this.written.get(group)!;
  }
}

/**
 * The tables the writer vacuums where nothing else does, for their visibility maps. The indexes the
 * pages of one account are read by hold every column their keys need (migration 8:
 * `transactions (account, lt) include (hash)`, `messages (source, created_lt, msg_hash)` and the
 * same by destination), so those keys are an index-only scan; it still reads the heap row of each
 * entry on a page the map does not mark all-visible, and only VACUUM marks pages. A server's
 * autovacuum does it for tables that are only appended to (PostgreSQL 13 and later); PGlite and a
 * server with autovacuum off never would, and the planner then also costs the index-only scan as an
 * index scan (migration 8's comment). A VACUUM of such a table reads only the pages written since
 * the last one (the map skips the rest), so it is cheap to run as often as autovacuum would. Each
 * is a table the pipeline counts the rows of (a key of WrittenRows).
 */
export const VACUUMED_TABLES = ['transactions', 'messages'] as const satisfies readonly (keyof WrittenRows)[];
export type VacuumedTable = (typeof VACUUMED_TABLES)[number];
/** autovacuum_vacuum_insert_threshold's default: rows inserted before a VACUUM. */
export const VACUUM_MIN_ROWS = 1000;
/** autovacuum_vacuum_insert_scale_factor's default: and this fraction of the table's rows. */
export const VACUUM_SCALE = 0.2;

/** The statement reading each group's baseline: its first table's reltuples (-1: never analyzed). */
export const BASELINE_SQL = `select C.relname, C.reltuples::float8 as reltuples from pg_class as C
  where C.relname = any($1) and C.relkind in ('r', 'p') and C.relnamespace = current_schema()::regnamespace`;

/** Each group's baseline from BASELINE_SQL's rows. */
export function baselineOf(rows: readonly { relname: string; reltuples: number }[]): Partial<Record<StatisticsGroup, number | null>> {
  const out: Partial<Record<StatisticsGroup, number | null>> = {};
  for (const group of GROUPS) {
    const row = rows.find((r) => r.relname === STATISTICS_GROUPS[group][0]);
    out[group] = row && row.reltuples >= 0 ? row.reltuples : null;
  }
  return out;
}

/** The first tables of the groups (what BASELINE_SQL asks for). */
export const BASELINE_TABLES: readonly string[] = GROUPS.map((group) => STATISTICS_GROUPS[group][0]!);
