import { Address } from '@ton/core';
import { LiteServerError } from '../../../errors';
import { serializeProofs } from '../../../cells';
import { LocalChain } from '../../ledger/LocalChain';
import { accountInState, stateRootProof } from '../../ledger/proofs';
import { LiteHandler } from '../dispatcher';
import { INVALID_BLOCK_ID, toTlBlockId } from './common';
import { resolveAccountContext } from './accountContext';
import { LITE_ERROR } from '../../../constants';

/**
 * Runs a get-method on the account as of the requested block (old code and data, that block's
 * gen_utime). Modes 1 (shard proof and state proof), 2 (account proof) and 4 (result stack) are
 * served; 8 (c7) and 16 (library extras) are not.
 */
export function runSmcMethod(chain: LocalChain): LiteHandler<'liteServer.runSmcMethod'> {
  return async (query) => {
    const mode = query.mode;
    if (mode & ~0x3f) throw new LiteServerError(LITE_ERROR.fatal, 'unsupported mode in runSmcMethod');
    if (mode & (8 | 16)) {
      throw new LiteServerError(
        LITE_ERROR.fatal,
        'unsupported mode in runSmcMethod: the local lite server does not return c7 or library extras',
      );
    }
    if (query.params.length >= 65536) throw new LiteServerError(LITE_ERROR.fatal, 'more than 64k parameter bytes passed');
    const ctx = resolveAccountContext(chain, query.id, query.account);
    const withProofs = (mode & 1) !== 0;
    if (!ctx.shard) {
      return result(
        mode,
        toTlBlockId(ctx.base.id),
        INVALID_BLOCK_ID,
        withProofs ? ctx.shardProof : null,
        withProofs ? Buffer.alloc(0) : null,
        null,
        -256,
        null,
      );
    }
    const shard = ctx.shard;
    const { proof: pathProof, account } = accountInState(shard.state, query.account.id);
    const proof = withProofs ? serializeProofs([stateRootProof(shard.root), pathProof]) : null;
    const stateProof =
      mode & 2
        ? account
          ? serializeProofs([{ root: account, keep: { open: new Set([account]), full: new Set([account]) } }])
          : Buffer.alloc(0)
        : null;
    const methodId = Number(BigInt(query.methodId));
    if (!Number.isSafeInteger(methodId)) throw new LiteServerError(LITE_ERROR.fatal, 'method id out of range');
    let run;
    try {
      run = await chain.runGetMethod({
        state: shard.state,
        genUtime: shard.genUtime,
        mcSeqno: shard.masterchainSeqno,
        address: new Address(query.account.workchain, query.account.id),
        methodId,
        params: query.params,
      });
    } catch (err) {
      throw new LiteServerError(LITE_ERROR.fatal, err instanceof Error ? err.message : String(err));
    }
    const stack = mode & 4 ? (run.stack ?? Buffer.alloc(0)) : null;
    return result(
      mode,
      toTlBlockId(ctx.base.id),
      toTlBlockId(shard.id),
      withProofs ? ctx.shardProof : null,
      proof,
      stateProof,
      run.exitCode,
      stack,
    );
  };
}

function result(
  mode: number,
  id: ReturnType<typeof toTlBlockId>,
  shardblk: ReturnType<typeof toTlBlockId>,
  shardProof: Buffer | null,
  proof: Buffer | null,
  stateProof: Buffer | null,
  exitCode: number,
  stack: Buffer | null,
) {
  return {
    kind: 'liteServer.runMethodResult' as const,
    mode,
    id,
    shardblk,
    shardProof,
    proof,
    stateProof: mode & 2 ? (stateProof ?? Buffer.alloc(0)) : null,
    initC7: null,
    libExtras: null,
    exitCode,
    result: mode & 4 ? (stack ?? Buffer.alloc(0)) : null,
  };
}
