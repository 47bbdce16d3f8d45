import { serializeBoc } from '../../../cells';
import { LocalChain } from '../../ledger/LocalChain';
import { LiteHandler } from '../dispatcher';

/** Public libraries of the latest masterchain state; at most 16, unknown hashes are skipped. */
export function getLibraries(chain: LocalChain): LiteHandler<'liteServer.getLibraries'> {
  return async (query) => {
    const wanted = [...new Set(query.libraryList.slice(0, 16).map((h) => h.toString('hex')))].sort();
    const result = [];
    for (const hash of wanted) {
      const lib = chain.libraries.get(hash);
      if (lib) result.push({ kind: 'liteServer.libraryEntry' as const, hash: Buffer.from(hash, 'hex'), data: serializeBoc([lib]) });
    }
    return { kind: 'liteServer.libraryResult', result };
  };
}
