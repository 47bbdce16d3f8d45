import { Address, beginCell } from '@ton/core';
import { TonClient } from '@ton/ton';
import type { TestDatabase } from '../helpers/indexDatabases';
import type { LocalStack } from '../helpers/localStack';
import { deployTokensOn, transferAndBurnJetton, type DeployedTokens } from '../helpers/tokens';
import { callV2 } from '../helpers/v2Calls';
import { startIndexedStack } from './indexedStack';
import { openSse, until, type ReceivedEvent } from './support';

jest.setTimeout(400_000);

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

interface JettonEvent {
  type: string;
  finality: string;
  jetton: {
    address: string;
    balance: string;
    owner: string;
    jetton: string;
    last_transaction_lt: string;
    code_hash: string;
    data_hash: string;
  };
  address_book?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

/**
 * jettons_change (toncenter's JettonsNotification): the standard jetton (tonweb's minter and
 * wallet code) deployed on the embedded chain, then a transfer and a burn from the owner's wallet.
 * A subscriber of the owner and one of the recipient's jetton wallet each get the wallet's new
 * state, whose balance is what the wallet's own get_wallet_data answers through v2 runGetMethod;
 * a subscriber of another account gets nothing.
 */
describe('streaming jettons_change on the embedded chain (index on PostgreSQL)', () => {
  let stack: LocalStack;
  let db: TestDatabase;
  let tokens: DeployedTokens;
  let client: TonClient;
  const recipient = new Address(0, Buffer.alloc(32, 0x4c));

  beforeAll(async () => {
    ({ stack, db } = await startIndexedStack());
    client = new TonClient({ endpoint: `${stack.api}/jsonRPC` });
    tokens = await deployTokensOn(stack, client);
  });
  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
  });

  async function walletBalance(wallet: Address): Promise<string> {
    const answer = await callV2<{ stack: [string, string][]; exit_code: number }>(stack, 'POST', 'runGetMethod', {
      address: wallet.toString(),
      method: 'get_wallet_data',
      stack: [],
    });
    expect(answer.body.result!.exit_code).toBe(0);
    return BigInt(answer.body.result!.stack[0]![1]).toString();
  }

  const jettonEvents = (events: ReceivedEvent[]) =>
    events.filter((e) => e.data['type'] === 'jettons_change').map((e) => e.data as unknown as JettonEvent);

  test('owner and wallet subscribers get the new balances get_wallet_data gives; others nothing', async () => {
    const recipientWallet = (
      await client.runMethod(tokens.minter, 'get_wallet_address', [{ type: 'slice', cell: beginCell().storeAddress(recipient).endCell() }])
    ).stack.readAddress();
    const byOwner = openSse(stack.url, {
      types: ['jettons_change'],
      addresses: [tokens.owner.toString()],
      include_address_book: true,
      include_metadata: true,
    });
    const byWallet = openSse(stack.url, { types: ['jettons_change'], addresses: [recipientWallet.toString()] });
    const unrelated = openSse(stack.url, {
      types: ['jettons_change', 'transactions'],
      addresses: [new Address(0, Buffer.alloc(32, 0x3d)).toString()],
    });
    const clients = [byOwner, byWallet, unrelated];
    try {
      await until(() => clients.every((c) => c.connected() !== undefined), 'subscribed', 30_000);

      // 1000 to the recipient, then a burn of 100: the owner's wallet ends 1100 lower.
      await transferAndBurnJetton(client, stack.localnet.wallets.keyPair, tokens, recipient);
      const ownerFinal = (tokens.jettonAmount - 1100n).toString();
      await until(
        () => jettonEvents(byOwner.events).some((e) => e.jetton.balance === ownerFinal),
        "the owner's wallet after the burn",
        180_000,
      );
      await until(() => jettonEvents(byWallet.events).length > 0, "the recipient's wallet", 180_000);

      const owned = jettonEvents(byOwner.events);
      // Every event of the owner's subscription is its wallet's, in order: (the mint, when its block
      // came after the subscription,) after the transfer, after the burn.
      expect(owned.map((e) => e.jetton.address)).toEqual(owned.map(() => raw(tokens.jettonWallet)));
      expect(owned.map((e) => e.jetton.balance).slice(-2)).toEqual([(tokens.jettonAmount - 1000n).toString(), ownerFinal]);
      expect(owned.length).toBeLessThanOrEqual(3);
      const last = owned.at(-1)!;
      expect(last).toMatchObject({
        type: 'jettons_change',
        finality: 'finalized',
        jetton: { owner: raw(tokens.owner), jetton: raw(tokens.minter) },
      });
      expect(last.jetton.balance).toBe(await walletBalance(tokens.jettonWallet));
      expect(BigInt(last.jetton.last_transaction_lt)).toBeGreaterThan(0n);
      expect(Object.keys(last.address_book ?? {})).toEqual(
        expect.arrayContaining([raw(tokens.jettonWallet), raw(tokens.owner), raw(tokens.minter)]),
      );

      // include_metadata: the token metadata of the event's addresses, what v3's metadata route
      // answers for them (the wallet pointing at its master, the master's on-chain content).
      const metadataRoute = (await (
        await fetch(`${stack.url}/api/v3/metadata?address=${raw(tokens.jettonWallet)}&address=${raw(tokens.minter)}`)
      ).json()) as Record<string, unknown>;
      expect(Object.keys(last.metadata ?? {}).sort()).toEqual([raw(tokens.jettonWallet), raw(tokens.minter)].sort());
      expect(last.metadata).toEqual(metadataRoute);
      expect(last.metadata![raw(tokens.jettonWallet)]).toMatchObject({ token_info: [{ type: 'jetton_wallets' }] });

      const received = jettonEvents(byWallet.events);
      expect(received).toHaveLength(1);
      expect(received[0]!.jetton).toMatchObject({
        address: raw(recipientWallet),
        owner: raw(recipient),
        jetton: raw(tokens.minter),
        balance: '1000',
      });
      expect(received[0]!.jetton.balance).toBe(await walletBalance(recipientWallet));
      expect(received[0]!.address_book).toBeUndefined();
      expect(received[0]!.metadata).toBeUndefined();

      // Resume replays them (rebuilt from the index: the wallet's stored state is that block's).
      const before = `${Number(byOwner.events[0]!.id.split(':')[0]) - 1}:999999`;
      const replay = openSse(
        stack.url,
        { types: ['jettons_change'], addresses: [recipientWallet.toString()] },
        { 'last-event-id': before },
      );
      clients.push(replay);
      await until(() => jettonEvents(replay.events).length > 0, 'the replayed event', 60_000);
      expect(jettonEvents(replay.events).map((e) => e.jetton)).toEqual(received.map((e) => e.jetton));

      expect(unrelated.events).toEqual([]);
    } finally {
      for (const c of clients) c.source.close();
    }
  });
});
