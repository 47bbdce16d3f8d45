/**
 * Child process of the periodic-save test: replaces the file named by argv[2] with argv[3] MiB
 * of 0xee bytes through writeFileAtomic, once (the test kills it in the middle).
 */
import { writeFileAtomic } from '../../../src/localnet/ledger/snapshot';

async function main(): Promise<void> {
  const [file, mib] = process.argv.slice(2);
  const data = Buffer.alloc(Number(mib) * 1024 * 1024, 0xee);
  await writeFileAtomic(file, data);
}

void main();
