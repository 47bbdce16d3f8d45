/**
 * The system contracts every TON network has in its masterchain zerostate: the configuration
 * contract (param 0) and the elector (param 1), as ShardAccount cells. Their code is the
 * committed compilation of config.fc and elector.fc (compiled.json).
 */
import { Address, beginCell, Cell, StateInit, storeShardAccount } from '@ton/core';
import compiled from './compiled.json';

/** Which tick-tock transactions a special account runs in every masterchain block. */
export type TickTockKind = 'tick' | 'tock';

export interface SystemAccount {
  address: Address;
  /** As on real networks: the elector runs tick, the config contract tock. */
  runs: TickTockKind;
  shardAccount: Cell;
}

/** Coins each system contract holds at genesis (what TON's own zerostate script gives them). */
export const SYSTEM_CONTRACT_BALANCE = 500_000_000_000n;

export const CONFIG_CODE = Cell.fromBase64(compiled.config);
export const ELECTOR_CODE = Cell.fromBase64(compiled.elector);

/** `cfg_dict:^Cell stored_seqno:uint32 public_key:uint256 vote_dict:(HashmapE 256 ...)`. */
export function configContractData(configRoot: Cell, publicKey: Buffer): Cell {
  return beginCell().storeRef(configRoot).storeUint(0, 32).storeBuffer(publicKey, 32).storeBit(false).endCell();
}

/**
 * `elect credits past_elections grams active_id active_hash`: no election, no credits, no past
 * elections; the active validator set is the genesis one (active_hash is its cell hash).
 */
export function electorData(activeValidatorSet: Cell): Cell {
  return beginCell()
    .storeBit(false)
    .storeBit(false)
    .storeBit(false)
    .storeCoins(0n)
    .storeUint(0, 32)
    .storeBuffer(activeValidatorSet.hash(), 32)
    .endCell();
}

export function systemAccounts(args: {
  configAddr: Buffer;
  electorAddr: Buffer;
  configRoot: Cell;
  validatorPublicKey: Buffer;
  activeValidatorSet: Cell;
  now: number;
}): SystemAccount[] {
  const config = new Address(-1, args.configAddr);
  const elector = new Address(-1, args.electorAddr);
  return [
    {
      address: elector,
      runs: 'tick',
      shardAccount: specialAccount(
        elector,
        {
          special: { tick: true, tock: false },
          code: ELECTOR_CODE,
          data: electorData(args.activeValidatorSet),
        },
        args.now,
      ),
    },
    {
      address: config,
      runs: 'tock',
      shardAccount: specialAccount(
        config,
        {
          special: { tick: false, tock: true },
          code: CONFIG_CODE,
          data: configContractData(args.configRoot, args.validatorPublicKey),
        },
        args.now,
      ),
    },
  ];
}

function specialAccount(address: Address, init: StateInit, now: number): Cell {
  return beginCell()
    .store(
      storeShardAccount({
        account: {
          addr: address,
          storageStats: { used: storageUsed(init), storageExtra: null, lastPaid: now, duePayment: null },
          storage: { lastTransLt: 0n, balance: { coins: SYSTEM_CONTRACT_BALANCE }, state: { type: 'active', state: init } },
        },
        lastTransactionHash: 0n,
        lastTransactionLt: 0n,
      }),
    )
    .endCell();
}

/** Distinct cells and their bits under code and data: what the account stores. */
function storageUsed(init: StateInit): { cells: bigint; bits: bigint } {
  const seen = new Set<string>();
  let bits = 0;
  const walk = (c: Cell) => {
    const key = c.hash().toString('hex');
    if (seen.has(key)) return;
    seen.add(key);
    bits += c.bits.length;
    for (const r of c.refs) walk(r);
  };
  if (init.code) walk(init.code);
  if (init.data) walk(init.data);
  return { cells: BigInt(seen.size), bits: BigInt(bits) };
}
