/** Get-methods of sealed states: account lookup in a ShardStateUnsplit and a TVM run in the emulator. */
import { Address, Cell, loadShardAccount, parseTuple, TupleItem } from '@ton/core';
import { PrevBlocksInfo } from '@ton/sandbox';
import { dictLookupPath } from '../../cells';
import { loadDepthBalanceInfo } from '../../tlb';
import { accountsOf } from './proofs';
import { SandboxEngine } from './sandboxAdapter';

export interface GetMethodRun {
  exitCode: number;
  /** Serialized result VmStack (BoC), null when the account has no code to run. */
  stack: Buffer | null;
  gasUsed: bigint;
}

export interface GetMethodArgs {
  state: Cell;
  genUtime: number;
  mcSeqno: number;
  address: Address;
  methodId: number;
  params: Buffer;
}

const NO_CODE: GetMethodRun = { exitCode: -256, stack: null, gasUsed: 0n };

/** Runs a get-method against the account as of `args.state` (a ShardStateUnsplit of a sealed block). */
export async function runGetMethodAt(
  engine: SandboxEngine,
  gasLimit: bigint,
  prevBlocksInfo: PrevBlocksInfo | undefined,
  args: GetMethodArgs,
): Promise<GetMethodRun> {
  const leaf = accountLeaf(args.state, args.address);
  if (!leaf) return NO_CODE;
  const shardAccount = loadShardAccount(leaf);
  const account = shardAccount.account;
  if (!account || account.storage.state.type !== 'active') return NO_CODE;
  const { code, data } = account.storage.state.state;
  if (!code || !data) return NO_CODE;
  const stack: TupleItem[] = args.params.length > 0 ? parseTuple(Cell.fromBoc(args.params)[0]) : [];
  const extraCurrency: Record<number, bigint> = {};
  for (const [id, amount] of account.storage.balance.other ?? []) extraCurrency[id] = amount;
  const res = await engine.executor.runGetMethod({
    code,
    data,
    methodId: args.methodId,
    stack,
    config: engine.configBase64,
    verbosity: 'short',
    libs: engine.libs,
    address: args.address,
    unixTime: args.genUtime,
    balance: account.storage.balance.coins,
    randomSeed: Buffer.alloc(32),
    gasLimit,
    debugEnabled: false,
    extraCurrency,
    prevBlocksInfo,
  });
  if (!res.output.success) throw new Error(`cannot run get-method: ${res.output.error}`);
  return {
    exitCode: res.output.vm_exit_code,
    stack: Buffer.from(res.output.stack, 'base64'),
    gasUsed: BigInt(res.output.gas_used),
  };
}

/** The ShardAccount leaf slice of `address` in a ShardStateUnsplit, or null when absent. */
export function accountLeaf(state: Cell, address: Address) {
  const path = dictLookupPath(accountsOf(state).root, 256, BigInt('0x' + address.hash.toString('hex')));
  if (!path.value) return null;
  // The leaf is the DepthBalanceInfo extra, then the ShardAccount.
  const leaf = path.value;
  loadDepthBalanceInfo(leaf);
  return leaf;
}
