/**
 * --keep-blocks: the whole product (chain, lite server over TCP, API) with a 16-block window.
 * Blocks that left the window answer 651 at the lite server and LITE_SERVER_NOTREADY through
 * the API; key-block rounds stay, so proofs from the zerostate still verify their way to the
 * head; account states stay whole; histories reach back to the window's edge; a chain saved
 * with a window resumes with it.
 */
import { Address, Cell, loadTransaction, toNano } from '@ton/core';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { dictLookupPath } from '../../src/cells';
import { BASECHAIN, BlockId, MASTERCHAIN } from '../../src/localnet/ledger/ids';
import { toTlBlockId } from '../../src/localnet/liteserver/queries/common';
import { AdnlMessageAnswer, decodeLiteAnswer, decodeLiteServerErrorIfAny, encodeLiteServerQuery, LiteQuery } from '../../src/tl';
import { LocalStack, startLocalStack } from '../helpers/localStack';
import { sendTransfer } from '../helpers/v2Calls';
import { RawAdnlClient } from './adnl/rawAdnlClient';

const KEEP = 16;

/** The recipient is uninitialized: each transfer in pays a few nanotons of storage fee. */
function nearly(balance: bigint, sent: bigint): boolean {
  return balance <= sent && balance > sent - 1000n;
}
const FULL_SHARD = '-9223372036854775808';

describe('local chain retention window (--keep-blocks)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'localnet-retention-'));
  const stateFile = path.join(dir, 'chain.lnet');
  let stack: LocalStack;
  let lite: RawAdnlClient;
  const recipient = new Address(0, Buffer.alloc(32, 0x5a));

  async function ask(query: LiteQuery): Promise<Buffer> {
    const queryId = lite.sendQuery(encodeLiteServerQuery(query));
    const answer = (await lite.nextMessage()) as AdnlMessageAnswer;
    expect(answer.queryId.equals(queryId)).toBe(true);
    return answer.answer;
  }

  async function liteError(query: LiteQuery): Promise<{ code: number; message: string } | null> {
    return decodeLiteServerErrorIfAny(await ask(query));
  }

  const lookup = (workchain: number, seqno: number): LiteQuery => ({
    kind: 'liteServer.lookupBlock',
    mode: 1,
    id: { kind: 'tonNode.blockId', workchain, shard: FULL_SHARD, seqno },
    lt: null,
    utime: null,
  });

  const header = (id: BlockId): LiteQuery => ({ kind: 'liteServer.getBlockHeader', id: toTlBlockId(id), mode: 0 });

  async function api(method: string, params: Record<string, string | number>): Promise<{ status: number; body: Record<string, unknown> }> {
    const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
    const res = await fetch(`${stack.api}/${method}?${query.toString()}`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  beforeAll(async () => {
    stack = await startLocalStack(['--keep-blocks', String(KEEP), '--block-interval', '0', '--shards', '2', '--state-file', stateFile]);
    lite = await RawAdnlClient.open(stack.localnet.port, stack.localnet.publicKey);
  });

  afterAll(async () => {
    lite?.close();
    await stack?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('drops rounds older than the window, keeps key-block rounds, answers 651 for dropped blocks', async () => {
    const chain = stack.localnet.chain;
    const { sender } = await sendTransfer(stack, [recipient], toNano('1'));
    const senderShard = chain.accountShardTop(chain.lastMasterchainBlock(), sender).id.shard;
    const oldRound = chain.lastMasterchainBlock().id.seqno;
    const oldMc = chain.lastMasterchainBlock().id;
    const oldShard = chain.store.bySeqno(BASECHAIN, oldRound, senderShard)!.id;
    const oldTx = chain.store.transactionsOf(BASECHAIN, sender.hash).at(-1)!;
    expect(oldTx.block.seqno).toBe(oldRound);
    for (let i = 0; i < KEEP + 4; i++) await chain.seal();
    await sendTransfer(stack, [recipient], toNano('2'));
    const height = chain.lastMasterchainBlock().id.seqno;

    // Stored: the key-block round (1) and the last KEEP rounds, in every chain.
    const kept = [1, ...Array.from({ length: KEEP }, (_, i) => height - KEEP + 1 + i)];
    expect(chain.store.blocks(MASTERCHAIN).map((b) => b.id.seqno)).toEqual(kept);
    for (const shard of chain.shards) expect(chain.store.blocks(BASECHAIN, shard).map((b) => b.id.seqno)).toEqual(kept);

    // Dropped: 651 by seqno, by full id, by lt; kept ones answer.
    expect(await liteError(lookup(MASTERCHAIN, oldRound))).toEqual({ kind: 'liteServer.error', code: 651, message: 'block not found' });
    expect(await liteError(lookup(BASECHAIN, oldRound))).toMatchObject({ code: 651 });
    expect(await liteError(header(oldMc))).toMatchObject({ code: 651 });
    expect(await liteError(header(oldShard))).toMatchObject({ code: 651 });
    expect(
      await liteError({
        kind: 'liteServer.lookupBlock',
        mode: 2,
        id: { kind: 'tonNode.blockId', workchain: MASTERCHAIN, shard: FULL_SHARD, seqno: 0 },
        lt: oldTx.lt.toString(),
        utime: null,
      }),
    ).toMatchObject({ code: 651 });
    expect(await liteError(lookup(MASTERCHAIN, 1))).toBeNull();
    expect(await liteError(lookup(BASECHAIN, 1))).toBeNull();
    expect(await liteError(lookup(MASTERCHAIN, height - KEEP + 1))).toBeNull();
    expect(await liteError(lookup(MASTERCHAIN, height - KEEP))).toMatchObject({ code: 651 });

    // The API maps it as toncenter maps a non-archival server's answer.
    const viaApi = await api('lookupBlock', { workchain: -1, shard: FULL_SHARD, seqno: oldRound });
    expect(viaApi.status).toBe(500);
    expect(viaApi.body).toMatchObject({ ok: false, code: 500, error: expect.stringMatching(/^LITE_SERVER_NOTREADY: block not found/) });
    const header1 = await api('getBlockHeader', { workchain: -1, shard: FULL_SHARD, seqno: 1 });
    expect(header1.status).toBe(200);

    // Account states are whole: the recipient's balance counts both transfers, the old one included.
    const info = await api('getAddressBalance', { address: recipient.toString() });
    expect(info.status).toBe(200);
    expect(nearly(BigInt(info.body['result'] as string), toNano('3'))).toBe(true);

    // History: the lite server walks back to the window's edge; the dropped transaction is 651.
    const last = chain.store.transactionsOf(BASECHAIN, sender.hash).at(-1)!;
    const walked = decodeLiteAnswer(
      'liteServer.getTransactions',
      await ask({
        kind: 'liteServer.getTransactions',
        count: 16,
        account: { kind: 'liteServer.accountId', workchain: 0, id: sender.hash },
        lt: last.lt.toString(),
        hash: last.hash,
      }),
    );
    const txs = Cell.fromBoc(walked.transactions).map((c) => loadTransaction(c.beginParse()));
    expect(txs.map((t) => t.lt)).toEqual([last.lt]);
    expect(txs[0].prevTransactionLt).toBe(oldTx.lt);
    expect(
      await liteError({
        kind: 'liteServer.getTransactions',
        count: 16,
        account: { kind: 'liteServer.accountId', workchain: 0, id: sender.hash },
        lt: oldTx.lt.toString(),
        hash: oldTx.hash,
      }),
    ).toMatchObject({ code: 651 });
    const history = await api('getTransactions', { address: sender.toString(), limit: 10 });
    expect(history.status).toBe(200);
    const listed = history.body['result'] as { transaction_id: { lt: string } }[];
    expect(listed.map((t) => t.transaction_id.lt)).toEqual([last.lt.toString()]);
  });

  it('proves the head from the zerostate: forward links through the kept key block, back links to kept blocks only', async () => {
    const chain = stack.localnet.chain;
    const head = chain.lastMasterchainBlock();
    const forward = decodeLiteAnswer(
      'liteServer.getBlockProof',
      await ask({ kind: 'liteServer.getBlockProof', mode: 0, knownBlock: toTlBlockId(chain.zeroState.id), targetBlock: null }),
    );
    expect(forward.complete).toBe(true);
    expect(forward.steps.map((s) => [s.kind, s.from.seqno, s.to.seqno])).toEqual([
      ['liteServer.blockLinkForward', 0, 1],
      ['liteServer.blockLinkForward', 1, head.id.seqno],
    ]);
    const toKey = decodeLiteAnswer(
      'liteServer.getBlockProof',
      await ask({
        kind: 'liteServer.getBlockProof',
        mode: 1,
        knownBlock: toTlBlockId(head.id),
        targetBlock: toTlBlockId(chain.store.bySeqno(MASTERCHAIN, 1)!.id),
      }),
    );
    expect(toKey.complete).toBe(true);
    expect(toKey.steps.map((s) => [s.kind, s.to.seqno])).toEqual([['liteServer.blockLinkBack', 1]]);
    // The head's prev_blocks lists the kept masterchain blocks (key block 1 included), not the dropped ones.
    const prevBlocks = head.state.refs[3].refs[2]
      .beginParse()
      .skip(16 + 65)
      .loadRef();
    const listed = (seqno: number): boolean => dictLookupPath(prevBlocks, 32, BigInt(seqno)).value !== null;
    expect(listed(1)).toBe(true);
    expect(listed(head.id.seqno - 1)).toBe(true);
    expect(listed(head.id.seqno - KEEP + 1)).toBe(true);
    expect(listed(head.id.seqno - KEEP - 1)).toBe(false);
    expect(listed(2)).toBe(false);
  });

  it('saves the window and resumes with it: same head, dropped blocks still dropped, new blocks follow', async () => {
    const chain = stack.localnet.chain;
    await stack.localnet.save(stateFile);
    const saved = fs.statSync(stateFile).size;
    expect(saved).toBeGreaterThan(0);
    const head = chain.lastMasterchainBlock().id;
    lite.close();
    await stack.stop();

    stack = await startLocalStack(['--keep-blocks', String(KEEP), '--block-interval', '0', '--shards', '2', '--state-file', stateFile]);
    lite = await RawAdnlClient.open(stack.localnet.port, stack.localnet.publicKey);
    const resumed = stack.localnet.chain;
    expect(resumed.lastMasterchainBlock().id.rootHash.equals(head.rootHash)).toBe(true);
    expect(resumed.store.blocks(MASTERCHAIN).map((b) => b.id.seqno)).toEqual([
      1,
      ...Array.from({ length: KEEP }, (_, i) => head.seqno - KEEP + 1 + i),
    ]);
    expect(await liteError(lookup(MASTERCHAIN, head.seqno - KEEP))).toMatchObject({ code: 651 });
    await sendTransfer(stack, [recipient], toNano('1'));
    const next = resumed.lastMasterchainBlock().id.seqno;
    expect(next).toBe(head.seqno + 1);
    expect(resumed.store.blocks(MASTERCHAIN)[1].id.seqno).toBe(next - KEEP + 1);
    const balance = await api('getAddressBalance', { address: recipient.toString() });
    expect(nearly(BigInt(balance.body['result'] as string), toNano('4'))).toBe(true);
  });
});
