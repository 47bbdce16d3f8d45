/**
 * c7's PrevBlocksInfo reaches every transaction: the emulator adapter serializes it once per
 * block and reuses it for the block's other transactions. A contract records the newest
 * masterchain block of PREVMCBLOCKS on each message; two messages in one block (the second
 * served from the reuse) and one in a later block must all see the block sealed before theirs.
 */
import { Address, beginCell, Cell, internal, parseTuple, SendMode, toNano, TupleReader } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { startConnectedLocalnet, ConnectedLocalnet } from './helpers/liteClient';

/**
 * FunC (compiled with @ton-community/func-js): recv_internal stores (count + 1, seqno of
 * first(PREVMCBLOCKS)) as (uint16, uint32); get-method `seen` returns them.
 */
const RECORDER_CODE = Cell.fromBase64('te6ccgEBBAEAOAABFP8A9KQT9LzyyAsBAgFiAgMALtD4NABvEG8S7UTQ0w8wpMjLD8sfye1UABWhoQvaiaGmH64WPw==');

describe('PrevBlocksInfo in transactions', () => {
  let ctx: ConnectedLocalnet;
  let recorder: Address;

  beforeAll(async () => {
    ctx = await startConnectedLocalnet({ accounts: 1 });
    const init = { code: RECORDER_CODE, data: beginCell().storeUint(0, 16).storeUint(0, 32).endCell() };
    recorder = new Address(0, beginCell().storeUint(6, 5).storeRef(init.code).storeRef(init.data).endCell().hash());
    await ctx.net.chain.deployGenesis([{ address: recorder, init, balance: toNano('1') }]);
    await ctx.net.chain.seal();
  });

  afterAll(async () => {
    await ctx?.close();
  });

  async function seen(): Promise<[bigint, bigint]> {
    const last = (await ctx.client.getMasterchainInfo()).last;
    const res = await ctx.client.runMethod(recorder, 'seen', Buffer.alloc(0), last);
    const stack = res.result ? Cell.fromBase64(res.result) : null;
    expect(stack).not.toBeNull();
    const tuple = new TupleReader(parseTuple(stack!));
    return [tuple.readBigNumber(), tuple.readBigNumber()];
  }

  async function transfer(seqno: number, messages: number): Promise<void> {
    const wallet = ctx.client.open(ctx.net.wallets.wallets[0].contract as WalletContractV4);
    await wallet.sendTransfer({
      seqno,
      secretKey: ctx.net.wallets.keyPair.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: Array.from({ length: messages }, () => internal({ to: recorder, value: toNano('0.1'), bounce: false })),
    });
  }

  it('every transaction of a block, and of the next block, sees the masterchain block sealed before it', async () => {
    const before = ctx.net.chain.lastMasterchainBlock().id.seqno;
    await transfer(0, 2);
    expect(ctx.net.chain.lastMasterchainBlock().id.seqno).toBe(before + 1);
    // The deploying message was the first (count 1).
    expect(await seen()).toEqual([3n, BigInt(before)]);
    await ctx.net.chain.seal();
    await transfer(1, 1);
    expect(await seen()).toEqual([4n, BigInt(before + 2)]);
  });
});
