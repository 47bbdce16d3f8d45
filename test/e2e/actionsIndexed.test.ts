import { Address, toNano } from '@ton/core';
import { TonClient } from '@ton/ton';
import { createTestDatabase, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { deployTokensOn, indexCaughtUp, transferAndBurnJetton, type DeployedTokens } from '../helpers/tokens';
import { callV2 } from '../helpers/v2Calls';

jest.setTimeout(240_000);

type Json = Record<string, unknown>;
type Action = { type: string; action_id: string; success: boolean; details: Json; transactions: string[]; trace_id: string; accounts?: string[] };

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

/**
 * Actions end to end on the embedded chain, indexed into PostgreSQL: the standard jetton contracts
 * (tonweb's code, as on mainnet) deployed, minted, transferred with a comment as forward payload,
 * burnt; each appears as its action in /api/v3/actions and on its trace, and the amounts the
 * actions name add up to the wallet's own get_wallet_data through v2 runGetMethod.
 */
describe('actions indexed from the local chain', () => {
  let db: TestDatabase;
  let stack: LocalStack;
  let client: TonClient;
  let tokens: DeployedTokens;
  const recipient = new Address(0, Buffer.alloc(32, 0x5e));

  async function v3(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Json }> {
    const res = await fetch(`${stack.url}/api/v3${path}`, { headers });
    return { status: res.status, body: (await res.json()) as Json };
  }

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    stack = await startLocalStack(['--block-interval', '300', '--index', 'on', '--database-url', db.url!]);
    client = new TonClient({ endpoint: `${stack.api}/jsonRPC` });
    const { keyPair } = stack.localnet.wallets;
    tokens = await deployTokensOn(stack, client);
    await transferAndBurnJetton(client, keyPair, tokens, recipient);
    await indexCaughtUp(stack);
  });

  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
  });

  it('lists the mint, the transfer and the burn of the owner, with toncenter-shaped details', async () => {
    const { status, body } = await v3(`/actions?account=${encodeURIComponent(tokens.owner.toString())}&limit=100&include_accounts=true`);
    expect(status).toBe(200);
    const actions = body['actions'] as Action[];
    const byType = (type: string) => actions.filter((a) => a.type === type);
    const owner = raw(tokens.owner);
    const wallet = raw(tokens.jettonWallet);

    // The mint (deployTokens mints the jetton and an NFT in one wallet transfer): its trace is
    // complete since the local chain delivers messages as sent (the minter deploys the wallet with
    // its StateInit and body in references).
    const [mint] = byType('jetton_mint');
    expect(mint).toBeDefined();
    expect(mint!.details).toMatchObject({ asset: raw(tokens.minter), receiver: owner, amount: tokens.jettonAmount.toString() });

    const [transfer] = byType('jetton_transfer');
    expect(transfer).toBeDefined();
    expect(transfer!.success).toBe(true);
    expect(transfer!.details).toMatchObject({
      sender: owner,
      receiver: raw(recipient),
      sender_jetton_wallet: wallet,
      amount: '1000',
      comment: 'hello jetton',
      is_encrypted_comment: false,
      query_id: '7',
      response_destination: owner,
      forward_amount: toNano('0.01').toString(),
    });
    // sender's external-triggered transfer, sender's wallet, receiver's wallet (deployed), notification, excesses
    expect(transfer!.transactions.length).toBeGreaterThanOrEqual(4);
    expect(transfer!.accounts).toEqual(expect.arrayContaining([owner, wallet, raw(recipient)]));

    const [burn] = byType('jetton_burn');
    expect(burn).toBeDefined();
    expect(burn!.details).toEqual({ owner, owner_jetton_wallet: wallet, asset: raw(tokens.minter), amount: '100' });

    // The amounts the actions name equal the wallet's own balance (get_wallet_data through v2).
    const data = await callV2<{ stack: [string, string][] ; exit_code: number }>(stack, 'POST', 'runGetMethod', { address: tokens.jettonWallet.toString(), method: 'get_wallet_data', stack: [] });
    const balance = BigInt(data.body.result!.stack[0]![1]);
    expect(balance).toBe(tokens.jettonAmount - BigInt(transfer!.details['amount'] as string) - BigInt(burn!.details['amount'] as string));
    expect(balance).toBe(tokens.jettonAmount - 1100n);

    // The deployments of the minter, the collection and the new jetton wallets are actions too.
    const deploys = byType('contract_deploy').map((a) => a.details['destination']);
    expect(deploys).toEqual(expect.arrayContaining([raw(tokens.minter), raw(tokens.collection)]));
  });

  it('answers the same actions on the trace with include_actions, and filters by type and version', async () => {
    const list = (await v3(`/actions?account=${raw(tokens.owner)}&action_type=jetton_transfer`)).body['actions'] as Action[];
    expect(list.map((a) => a.type)).toEqual(['jetton_transfer']);
    expect(list[0]!.accounts).toBeUndefined();
    const traceId = list[0]!.trace_id;
    const traces = await v3(`/traces?trace_id=${encodeURIComponent(traceId)}&include_actions=true`);
    expect(traces.status).toBe(200);
    const [trace] = traces.body['traces'] as Json[];
    const traceActions = trace!['actions'] as Action[];
    expect(traceActions.map((a) => a.action_id)).toContain(list[0]!.action_id);
    expect((trace!['trace_info'] as Json)['classification_state']).toBe('ok');
    const byId = await v3(`/actions?action_id=${encodeURIComponent(list[0]!.action_id)}`);
    expect((byId.body['actions'] as Action[]).map((a) => a.type)).toEqual(['jetton_transfer']);
    // X-Actions-Version v1 still has jetton_transfer; an unsupported exclusive filter is empty.
    const v1 = await v3(`/actions?account=${raw(tokens.owner)}&action_type=jetton_transfer`, { 'X-Actions-Version': 'v1' });
    expect((v1.body['actions'] as Action[]).length).toBe(1);
    const none = await v3(`/actions?account=${raw(tokens.owner)}&action_type=multisig_approve`, { 'X-Actions-Version': 'v1' });
    expect(none.body['actions']).toEqual([]);
    const bad = await v3(`/actions?action_type=${encodeURIComponent("x' or 1=1 --")}`);
    expect(bad.status).toBe(422);
  });
});
