import { beginCell, external, internal, SendMode, storeMessage } from '@ton/core';
import type { WalletContractV4 } from '@ton/ton';
import type { LocalStack } from './localStack';
import { resultOf } from './v2Calls';
import { HARNESS_DEADLINE_MS, withLiteClient } from './sessionClient';

type ParamValue = string | number | boolean | readonly string[];

export interface MethodCall {
  readonly method: string;
  readonly params: Record<string, ParamValue>;
}

/** A signed transfer of 1 TON from v4r2 wallet #0 to wallet #1, as a base64 BoC. */
export async function transferBoc(stack: LocalStack, seqnoOffset = 0): Promise<string> {
  const { keyPair, wallets } = stack.localnet.wallets;
  const sender = wallets.find((w) => w.version === 'v4r2' && w.index === 0)!;
  const recipient = wallets.find((w) => w.version === 'v5r1' && w.index === 0)!;
  const contract = sender.contract as WalletContractV4;
  const seqno = await withLiteClient(stack.server.pool.openSession({ archival: true }, Date.now() + HARNESS_DEADLINE_MS), (client) =>
    client.open(contract).getSeqno(),
  );
  const transfer = contract.createTransfer({
    seqno: seqno + seqnoOffset,
    secretKey: keyPair.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: [internal({ to: recipient.address, value: 1_000_000_000n, bounce: false })],
  });
  return beginCell()
    .store(storeMessage(external({ to: sender.address, body: transfer })))
    .endCell()
    .toBoc()
    .toString('base64');
}

/**
 * One successful call of every method of the table against a local stack (after a transfer, so
 * there are transactions to list and locate). Methods the local chain cannot answer with a
 * success (no DNS root, no jetton) are left out and named in `skipped`.
 */
export async function everyMethodCalls(stack: LocalStack): Promise<{ calls: MethodCall[]; skipped: string[] }> {
  const wallets = stack.localnet.wallets.wallets;
  const wallet = wallets.find((w) => w.version === 'v4r2' && w.index === 0)!;
  const address = wallet.address.toString();
  const info = await resultOf<{ last: { seqno: number; shard: string; workchain: number; root_hash: string; file_hash: string } }>(
    stack,
    'GET',
    'getMasterchainInfo',
  );
  const transactions = await resultOf<
    Array<{
      transaction_id: { lt: string; hash: string };
      in_msg?: { source: string; destination: string; created_lt: string };
      out_msgs: Array<{ source: string; destination: string; created_lt: string }>;
    }>
  >(stack, 'GET', 'getTransactions', { address, limit: 5 });
  const withOut = transactions.find((tx) => tx.out_msgs.length > 0)!;
  const out = withOut.out_msgs[0]!;
  const last = info.last;
  const mcBlock = { workchain: last.workchain, shard: last.shard, seqno: last.seqno };
  const shards = await resultOf<{ shards: Array<{ workchain: number; shard: string; seqno: number }> }>(stack, 'GET', 'getShards', {
    seqno: last.seqno,
  });
  const shard = shards.shards[0]!;
  const codeCell = 'te6cckEBAQEAAgAAAEysuc0=';
  const calls: MethodCall[] = [
    { method: 'detectAddress', params: { address } },
    { method: 'detectHash', params: { hash: withOut.transaction_id.hash } },
    { method: 'packAddress', params: { address: wallet.address.toRawString() } },
    { method: 'unpackAddress', params: { address } },
    { method: 'getAddressBalance', params: { address } },
    { method: 'getAddressInformation', params: { address } },
    { method: 'getAddressState', params: { address } },
    { method: 'getExtendedAddressInformation', params: { address } },
    { method: 'getShardAccountCell', params: { address } },
    { method: 'getWalletInformation', params: { address } },
    { method: 'getMasterchainInfo', params: {} },
    { method: 'getMasterchainBlockSignatures', params: { seqno: last.seqno } },
    { method: 'getShardBlockProof', params: { ...mcBlock } },
    { method: 'getConsensusBlock', params: {} },
    { method: 'lookupBlock', params: { workchain: -1, shard: last.shard, seqno: last.seqno } },
    { method: 'getShards', params: { seqno: last.seqno } },
    { method: 'getBlockHeader', params: { ...mcBlock } },
    { method: 'getOutMsgQueueSize', params: {} },
    { method: 'getBlockTransactions', params: { workchain: shard.workchain, shard: shard.shard, seqno: shard.seqno, count: 10 } },
    { method: 'getBlockTransactionsExt', params: { workchain: shard.workchain, shard: shard.shard, seqno: shard.seqno, count: 10 } },
    { method: 'getTransactions', params: { address, limit: 3 } },
    { method: 'getTransactionsStd', params: { address, limit: 3 } },
    { method: 'tryLocateResultTx', params: { source: out.source, destination: out.destination, created_lt: out.created_lt } },
    { method: 'tryLocateSourceTx', params: { source: out.source, destination: out.destination, created_lt: out.created_lt } },
    { method: 'getConfigParam', params: { config_id: 34 } },
    { method: 'getConfigAll', params: {} },
    { method: 'getLibraries', params: { libraries: [] } },
    { method: 'runGetMethod', params: { address, method: 'seqno', stack: [] as unknown as readonly string[] } },
    { method: 'runGetMethodStd', params: { address, method: 'seqno', stack: [] as unknown as readonly string[] } },
    { method: 'estimateFee', params: { address, body: codeCell, ignore_chksig: true } },
  ];
  return { calls, skipped: ['dnsResolve', 'getTokenData', 'sendBoc', 'sendBocReturnHash', 'sendBocReturnHashNoError', 'sendQuery'] };
}
