/**
 * `--state-file`: the chain's last save plus its block journal (see chain/journal.ts).
 *
 * - At start (after a resume has replayed the journal): a save when the state file does not hold
 *   the head yet, then an empty journal based on it.
 * - Every sealed round: appended to the journal and flushed before it becomes visible.
 * - A save (`--save-interval`, or stop): the snapshot is captured and `.journal.next` started at
 *   its head in one step of the chain (no block in between); the state file is then written
 *   atomically, and `.journal.next` renamed over `.journal` (the old journal's rounds are all in
 *   the new state file). A crash in between leaves the old state file, `.journal` up to the
 *   snapshot's head and `.journal.next` after it: replay applies both, in that order.
 * - A restore of an in-memory snapshot (POST /localnet/restore) rewinds the chain on purpose: it is
 *   saved at once, inside the restore, and the journal starts over from it, so a restart comes
 *   back to the rewound chain and the blocks sealed after it (same seqnos as the forgotten ones,
 *   other hashes), never to the forgotten blocks.
 * Saves and restores hold one lock, so a state file is never replaced by an older capture.
 */
import { LocalnetLogger } from './adnlServer/logger';
import { BocNodeCache } from '../cells';
import { ChainSnapshot, LocalChain } from './ledger/LocalChain';
import type { ChainState } from './ledger/LocalChain';
import { BlockJournal, journalFiles, JournalBase, removeJournals, snapshotRoots } from './ledger/journal';
import { writeSnapshotFileAsync } from './ledger/snapshot';
import type { StoredBlock } from './ledger/store';
import { savedBlockId } from './ledger/chainSnapshot';

/** What the state file holds besides the chain. */
export interface SnapshotExtras {
  adnlSeed: Buffer;
  mnemonic: string[];
  accounts: number;
}

function headOf(snap: ChainSnapshot): JournalBase {
  const head = snap.masterchain[snap.masterchain.length - 1];
  if (!head) throw new Error('a chain with no block cannot be journaled');
  return savedBlockId(head);
}

export class ChainPersistence {
  private lock: Promise<unknown> = Promise.resolve();
  /** Saves of one chain share most cells: each encodes only what changed since the last one. */
  private readonly bocNodes = new BocNodeCache();

  private constructor(
    private readonly stateFile: string,
    private readonly chain: LocalChain,
    private readonly extras: SnapshotExtras,
    private readonly logger: LocalnetLogger,
    private readonly journal: BlockJournal,
  ) {}

  /**
   * Starts journaling `chain`. `savedHead`: the head the state file holds (null when there is no
   * file, or a replay or start-up block made the chain go past it): then a save comes first.
   */
  static async start(opts: {
    stateFile: string;
    chain: LocalChain;
    extras: SnapshotExtras;
    logger: LocalnetLogger;
    stateFileIsCurrent: boolean;
  }): Promise<ChainPersistence> {
    const { stateFile, chain } = opts;
    const files = journalFiles(stateFile);
    let journal: BlockJournal | undefined;
    const snap = await chain.snapshot(async (captured) => {
      journal = await BlockJournal.create(files.next, headOf(captured), snapshotRoots(captured), { markInSlices: false });
    });
    const persistence = new ChainPersistence(stateFile, chain, opts.extras, opts.logger, journal!);
    if (!opts.stateFileIsCurrent) await persistence.writeStateFile(snap);
    await journal!.moveTo(files.current);
    chain.setJournal(persistence.journal);
    return persistence;
  }

  /** A save: the state file becomes the chain now, and the journal starts over from it. */
  save(): Promise<void> {
    return this.locked(async () => {
      const files = journalFiles(this.stateFile);
      const snap = await this.chain.snapshot((captured) =>
        this.journal.rebase(files.next, headOf(captured), snapshotRoots(captured), { markInSlices: true }),
      );
      await this.writeStateFile(snap);
      await this.journal.moveTo(files.current);
    });
  }

  /** Puts the chain back to an in-memory snapshot and saves it before anything is sealed on it. */
  restore(state: ChainState): Promise<StoredBlock> {
    return this.locked(() =>
      this.chain.restoreState(state, async (snap) => {
        const files = journalFiles(this.stateFile);
        await this.journal.rebase(files.next, headOf(snap), snapshotRoots(snap), { markInSlices: true });
        await this.writeStateFile(snap);
        await this.journal.moveTo(files.current);
        this.logger.info({ seqno: headOf(snap).seqno }, 'localnet: restored chain saved; the journal starts over from it');
      }),
    );
  }

  /** The last save (the chain is stopped): the state file holds everything, the journals go. */
  stop(): Promise<void> {
    return this.locked(async () => {
      const snap = await this.chain.snapshot();
      await this.writeStateFile(snap);
      this.chain.setJournal(null);
      await this.journal.close();
      await removeJournals(this.stateFile);
    });
  }

  /** Rounds and bytes in the journal since the last save. */
  get journalSize(): { rounds: number; bytes: number } {
    return { rounds: this.journal.roundsSinceBase, bytes: this.journal.bytesSinceBase };
  }

  private async writeStateFile(snap: ChainSnapshot): Promise<void> {
    const took = await writeSnapshotFileAsync(this.stateFile, { chain: snap, ...this.extras }, this.bocNodes);
    this.logger.debug({ file: this.stateFile, height: headOf(snap).seqno, ...took }, 'localnet saved');
  }

  private locked<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.then(fn, fn);
    this.lock = run.catch(() => undefined);
    return run;
  }
}
