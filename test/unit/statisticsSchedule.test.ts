import { baselineOf, BASELINE_TABLES, GROWTH, MIN_ROWS, StatisticsSchedule, STATISTICS_GROUPS } from '../../src/indexer/statistics';
import { MIGRATIONS, type WrittenRows } from '../../src/indexdb';

const none: WrittenRows = { blocks: 0, transactions: 0, messages: 0, account_states: 0, traces: 0 };
const rows = (patch: Partial<WrittenRows>): WrittenRows => ({ ...none, ...patch });

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
