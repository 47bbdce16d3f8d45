/**
 * `npm run bench`: every benchmark, one after another. Add a bench as one entry below.
 * `npm run bench -- limiter` runs only the named ones.
 */
import { runApiBench } from './api';
import { runEmulateBench } from './emulate';
import { runHostileBench } from './hostile';
import { runIndexBench } from './indexIngest';
import { runLimiterBench } from './limiter';
import { runPendingBench } from './pending';
import { runProofsBench } from './proofs';
import { runServeBench } from './serve';
import { runStreamingBench } from './streaming';
import { runTvmFloodBench } from './tvmFlood';
import { runV3Bench } from './v3';

const BENCHES: Record<string, () => Promise<void>> = {
  limiter: runLimiterBench,
  api: runApiBench,
  hostile: runHostileBench,
  serve: runServeBench,
  proofs: runProofsBench,
  tvmflood: runTvmFloodBench,
  emulate: runEmulateBench,
  index: runIndexBench,
  streaming: runStreamingBench,
  v3: runV3Bench,
  pending: runPendingBench,
};

async function main(selected: string[]): Promise<void> {
  const unknown = selected.filter((name) => !(name in BENCHES));
  if (unknown.length > 0) throw new Error(`unknown bench ${unknown.join(', ')} (have: ${Object.keys(BENCHES).join(', ')})`);
  const names = selected.length > 0 ? selected : Object.keys(BENCHES);
  for (const name of names) {
    await BENCHES[name]!();
    console.log('');
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
