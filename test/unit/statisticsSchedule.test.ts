import { baselineOf, BASELINE_TABLES, GROWTH, MIN_ROWS, StatisticsSchedule, STATISTICS_GROUPS, VACUUM_MIN_ROWS, VACUUM_SCALE, VACUUMED_TABLES } from '../../src/indexer/statistics';
import { MIGRATIONS, type WrittenRows } from '../../src/indexdb';

const none: WrittenRows = { blocks: 0, transactions: 0, messages: 0, account_states: 0, traces: 0 };
const rows = (patch: Partial<WrittenRows>): WrittenRows => ({ ...none, ...patch });

describe('when the index vacuums its transactions and messages tables', () => {
  it("vacuums each once at start, then on autovacuum's insert schedule (VACUUM_MIN_ROWS + VACUUM_SCALE x its rows)", () => {
    const schedule = new StatisticsSchedule({ transactions: 50_000, blocks: 0, messages: 0, account_states: 0, traces: 0 });
    expect(VACUUMED_TABLES).toEqual(['transactions', 'messages']);
    // At start, whatever the tables hold: the rows before this process may never have been vacuumed.
    expect(schedule.vacuumDue()).toEqual(['transactions', 'messages']);
    schedule.vacuumed('transactions', 0, 50_000);
    schedule.vacuumed('messages', 0, 100_000);
    expect(schedule.vacuumDue()).toEqual([]);
    const threshold = VACUUM_MIN_ROWS + VACUUM_SCALE * 50_000;
    schedule.add(rows({ transactions: threshold - 1, account_states: 10 * threshold }));
    expect(schedule.vacuumDue()).toEqual([]); // other tables' rows do not count
    schedule.add(rows({ transactions: 1 }));
    expect(schedule.vacuumDue()).toEqual(['transactions']);
    // Rows committed while it ran count towards the next one.
    const written = schedule.writtenSinceLastVacuum('transactions');
    schedule.add(rows({ transactions: 300 }));
    schedule.vacuumed('transactions', written, 50_000 + threshold);
    expect(schedule.writtenSinceLastVacuum('transactions')).toBe(300);
    expect(schedule.vacuumDue()).toEqual([]);
    schedule.add(rows({ transactions: VACUUM_MIN_ROWS + VACUUM_SCALE * (50_000 + threshold) - 300 }));
    expect(schedule.vacuumDue()).toEqual(['transactions']);
    // messages by its own size: 100 000 at its last VACUUM.
    schedule.add(rows({ messages: VACUUM_MIN_ROWS + VACUUM_SCALE * 100_000 }));
    expect(schedule.vacuumDue()).toEqual(['transactions', 'messages']);
    // The ANALYZE schedule is its own (transactions grew less than GROWTH times).
    expect(schedule.due()).not.toContain('transactions');
  });
});

describe('when the index analyzes its tables', () => {
  it('analyzes a never-analyzed group at once, then after MIN_ROWS, then each time it grew GROWTH times', () => {
    const schedule = new StatisticsSchedule({ transactions: null, blocks: 0, messages: 0, account_states: 0, traces: 0 });
    expect(schedule.due()).toEqual(['transactions']);
    schedule.analyzed('transactions', 0, 0);
    expect(schedule.due()).toEqual([]);

    schedule.add(rows({ transactions: MIN_ROWS - 1 }));
    expect(schedule.due()).toEqual([]);
    schedule.add(rows({ transactions: 1 }));
    expect(schedule.due()).toEqual(['transactions']);
    schedule.analyzed('transactions', MIN_ROWS, MIN_ROWS);

    // MIN_ROWS analyzed: the next at GROWTH x that, i.e. (GROWTH - 1) x MIN_ROWS more.
    schedule.add(rows({ transactions: (GROWTH - 1) * MIN_ROWS - 1 }));
    expect(schedule.due()).toEqual([]);
    schedule.add(rows({ transactions: 1 }));
    expect(schedule.due()).toEqual(['transactions']);
  });

  it('keeps rows written while an ANALYZE ran for the next one', () => {
    const schedule = new StatisticsSchedule({ transactions: 0, blocks: 0, messages: 0, account_states: 0, traces: 0 });
    schedule.add(rows({ messages: 5000 }));
    expect(schedule.due()).toEqual(['messages']);
    const written = schedule.writtenSince('messages');
    schedule.add(rows({ messages: 700 })); // committed during the ANALYZE
    schedule.analyzed('messages', written, written);
    expect(schedule.writtenSince('messages')).toBe(700);
    // 5 000 analyzed: due again at 20 000 in all.
    schedule.add(rows({ messages: 15_000 - 700 - 1 }));
    expect(schedule.due()).toEqual([]);
    schedule.add(rows({ messages: 1 }));
    expect(schedule.due()).toEqual(['messages']);
  });

  it("takes the table's size from the ANALYZE: a large table never analyzed waits for its growth after the first", () => {
    // An index filled before the schedule existed: 2 000 000 rows, reltuples -1.
    const schedule = new StatisticsSchedule(baselineOf([{ relname: 'messages', reltuples: -1 }]));
    expect(schedule.due()).toContain('messages');
    schedule.analyzed('messages', 0, 2_000_000);
    schedule.add(rows({ messages: 5_999_999 }));
    expect(schedule.due()).not.toContain('messages');
    schedule.add(rows({ messages: 1 }));
    expect(schedule.due()).toContain('messages');
  });

  it("starts from the database's row counts: a large analyzed table waits for its growth", () => {
    const schedule = new StatisticsSchedule(
      baselineOf([
        { relname: 'transactions', reltuples: 1_000_000 },
        { relname: 'blocks', reltuples: -1 },
        { relname: 'messages', reltuples: 2_000_000 },
        { relname: 'account_states', reltuples: 0 },
        { relname: 'traces', reltuples: 10 },
      ]),
    );
    expect(schedule.due()).toEqual(['blocks']);
    schedule.add(rows({ transactions: 2_999_999, account_states: MIN_ROWS, traces: MIN_ROWS }));
    expect(schedule.due().sort()).toEqual(['account_states', 'blocks', 'traces']);
    schedule.add(rows({ transactions: 1 }));
    expect(schedule.due()).toContain('transactions');
  });

  it('names only tables the migrations create, each group led by the table it counts', () => {
    expect(BASELINE_TABLES).toEqual(Object.keys(STATISTICS_GROUPS));
    const created = new Set(MIGRATIONS.flatMap((m) => [...m.sql.matchAll(/create table (?:if not exists )?(\w+)/gi)].map((match) => match[1]!.toLowerCase())));
    for (const tables of Object.values(STATISTICS_GROUPS)) for (const table of tables) expect(created).toContain(table);
  });
});
