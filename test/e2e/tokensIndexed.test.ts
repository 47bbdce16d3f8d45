import { Address, beginCell, Cell, toNano } from '@ton/core';
import { internal, TonClient } from '@ton/ton';
import { createTestDatabase, INDEX_BACKENDS, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { deployTokensOn, indexCaughtUp, transferAndBurnJetton, type DeployedTokens } from '../helpers/tokens';
import { callV2 } from '../helpers/v2Calls';
import { transferFromWallet } from '../helpers/walletActions';
import { storeNftTransfer, storeTextComment } from '../../src/tlb';
import { v3DatabaseOf } from '../../src/v3/db';
import { V3Query } from '../../src/v3/params/query';
import { jettonTransfers, jettonWallets } from '../../src/v3/routes/jettons';
import { nftItems, nftTransfers } from '../../src/v3/routes/nft';
import { actionsRequest, actionsResponse } from '../../src/v3/routes/actions';
import { tracesRequest, tracesResponse } from '../../src/v3/routes/traces';
import { bookAndMetadataOf } from '../../src/v3/routes/common';
import type { RouteContext } from '../../src/v3/routes/route';
import { toJettonTransferJson, toJettonWalletJson, toNftItemJson, toNftTransferJson } from '../../src/v3/models/token';
import { buildJettonTransfersStatement, queryJettonTransfers, queryJettonWallets, queryNftItems, queryNftTransfers, queryTokenPageText } from '../../src/v3/sql/tokens';
import { assembleInline } from '../../src/v3/answers/pool';
import { v3AnswerTasks } from '../../src/metrics';

jest.setTimeout(300_000);

type Json = Record<string, unknown>;

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
/** The first bit of the account id: its shard of the local chain's two. */
const shardBit = (a: Address) => a.hash[0]! >> 7;


/**
 * Jettons and NFTs detected by the index on the embedded chain, with the standard contracts'
 * real code (tonweb's minter and wallet, as deployed on mainnet): a jetton deployed and minted to
 * two owners whose wallets sit in different shards, a transfer with a forward amount and a comment
 * in the forward payload, a burn. Each appears in its v3 route, and every balance and the supply
 * equal the contracts' own get-methods run through v2 runGetMethod; an NFT of the standard
 * collection minted and transferred with a comment: the collection, the item (its new owner) and
 * the transfer in theirs. On PostgreSQL and on the embedded PGlite store.
 */
describe.each(INDEX_BACKENDS)('tokens indexed from the local chain (%s)', (backend) => {
  let db: TestDatabase;
  let stack: LocalStack;
  let client: TonClient;
  let tokens: DeployedTokens;
  let secondOwner: Address;
  let secondWallet: Address;
  const recipient = new Address(0, Buffer.alloc(32, 0x5e));
  const secondAmount = 5000n;

  async function v3(path: string): Promise<{ status: number; body: Json }> {
    const res = await fetch(`${stack.url}/api/v3${path}`);
    const body = (await res.json()) as Json;
    // No request here should fail on the server's side: its text says why if one does.
    if (res.status >= 500) throw new Error(`GET /api/v3${path}: ${res.status} ${JSON.stringify(body)}`);
    return { status: res.status, body };
  }

  async function getMethod(address: Address, method: string): Promise<[string, unknown][]> {
    const answer = await callV2<{ stack: [string, unknown][]; exit_code: number }>(stack, 'POST', 'runGetMethod', { address: address.toString(), method, stack: [] });
    expect(answer.body.result!.exit_code).toBe(0);
    return answer.body.result!.stack;
  }

  async function walletOf(owner: Address): Promise<Address> {
    const result = await client.runMethod(tokens.minter, 'get_wallet_address', [{ type: 'slice', cell: beginCell().storeAddress(owner).endCell() }]);
    return result.stack.readAddress();
  }

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    // Every v3 answer that can be assembled in a thread is (the last test compares them with the old paths').
    stack = await startLocalStack([
      '--shards', '2', '--block-interval', '300', '--index', 'on', ...(db.url ? ['--database-url', db.url] : []),
      '--v3-answer-threads', '1', '--v3-answer-inline-below', '0',
    ]);
    client = new TonClient({ endpoint: `${stack.api}/jsonRPC` });
    const { keyPair } = stack.localnet.wallets;
    tokens = await deployTokensOn(stack, client);
    // A second owner whose jetton wallet is in the other shard than the first owner's.
    for (let k = 1; ; k++) {
      secondOwner = new Address(0, Buffer.alloc(32, k));
      secondWallet = await walletOf(secondOwner);
      if (shardBit(secondWallet) !== shardBit(tokens.jettonWallet)) break;
    }
    const mint = beginCell()
      .storeUint(21, 32)
      .storeUint(0, 64)
      .storeAddress(secondOwner)
      .storeCoins(toNano('0.2'))
      .storeRef(beginCell().storeUint(0x178d4519, 32).storeUint(0, 64).storeCoins(secondAmount).storeAddress(null).storeAddress(null).storeCoins(0).storeBit(0).endCell())
      .endCell();
    await transferFromWallet(client, keyPair, [internal({ to: tokens.minter, value: toNano('0.5'), body: mint })]);
    await transferAndBurnJetton(client, keyPair, tokens, recipient);
    const nftPayload = beginCell().store(storeTextComment({ text: Buffer.from('hello nft') })).endCell();
    const nftTransfer = beginCell()
      .store(storeNftTransfer({ queryId: 9n, newOwner: recipient, responseDestination: tokens.owner, customPayload: null, forwardAmount: toNano('0.01'), forwardPayload: { inRef: true, cell: nftPayload } }))
      .endCell();
    await transferFromWallet(client, keyPair, [internal({ to: tokens.item, value: toNano('0.2'), body: nftTransfer })]);
    await indexCaughtUp(stack);
  });

  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
  });

  it('lists the jetton master with the supply its get_jetton_data gives', async () => {
    const { status, body } = await v3(`/jetton/masters?address=${encodeURIComponent(tokens.minter.toString())}`);
    expect(status).toBe(200);
    const masters = body['jetton_masters'] as Json[];
    expect(masters).toHaveLength(1);
    const data = await getMethod(tokens.minter, 'get_jetton_data');
    expect(masters[0]).toMatchObject({
      address: raw(tokens.minter),
      total_supply: BigInt(data[0]![1] as string).toString(),
      mintable: true,
      admin_address: raw(tokens.owner),
      jetton_content: { name: 'Test jetton', symbol: 'TJ' },
    });
    // The supply: both mints, less the burn.
    expect(masters[0]!['total_supply']).toBe((tokens.jettonAmount + secondAmount - 100n).toString());
    expect(masters[0]!['jetton_wallet_code_hash']).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const byAdmin = await v3(`/jetton/masters?admin_address=${raw(tokens.owner)}`);
    expect((byAdmin.body['jetton_masters'] as Json[]).map((m) => m['address'])).toEqual([raw(tokens.minter)]);
    expect((byAdmin.body['address_book'] as Json)[raw(tokens.minter)]).toBeDefined();
  });

  it('lists the three wallets (two shards) with the balances their get_wallet_data gives', async () => {
    expect(shardBit(secondWallet)).not.toBe(shardBit(tokens.jettonWallet));
    const { status, body } = await v3(`/jetton/wallets?jetton_address=${encodeURIComponent(tokens.minter.toString())}&sort=desc`);
    expect(status).toBe(200);
    const wallets = body['jetton_wallets'] as Json[];
    const recipientWallet = await walletOf(recipient);
    expect(wallets.map((w) => w['address']).sort()).toEqual([raw(tokens.jettonWallet), raw(secondWallet), raw(recipientWallet)].sort());
    for (const wallet of wallets) {
      const data = await getMethod(Address.parse(wallet['address'] as string), 'get_wallet_data');
      expect(wallet['balance']).toBe(BigInt(data[0]![1] as string).toString());
      expect(wallet['jetton']).toBe(raw(tokens.minter));
    }
    // sort=desc orders by balance: the first owner's (1e9 - 1100) first, the recipient's 1000 last.
    expect(wallets.map((w) => w['balance'])).toEqual([(tokens.jettonAmount - 1100n).toString(), secondAmount.toString(), '1000']);
    const byOwner = await v3(`/jetton/wallets?owner_address=${raw(secondOwner)}`);
    expect(byOwner.body['jetton_wallets']).toEqual([expect.objectContaining({ address: raw(secondWallet), owner: raw(secondOwner), balance: secondAmount.toString() })]);
    const two = await v3(`/jetton/wallets?jetton_address=${raw(tokens.minter)}&jetton_address=${raw(recipient)}`);
    expect(two).toEqual({ status: 422, body: { error: 'exact one owner_address required for multiple jetton_address' } });
  });

  it('lists the transfer with its query id, amount, destinations, forward amount and payload (the comment)', async () => {
    const { status, body } = await v3(`/jetton/transfers?owner_address=${raw(tokens.owner)}&direction=out`);
    expect(status).toBe(200);
    const transfers = body['jetton_transfers'] as Json[];
    expect(transfers).toHaveLength(1);
    const transfer = transfers[0]!;
    expect(transfer).toMatchObject({
      query_id: '7',
      source: raw(tokens.owner),
      destination: raw(recipient),
      amount: '1000',
      source_wallet: raw(tokens.jettonWallet),
      jetton_master: raw(tokens.minter),
      transaction_aborted: false,
      response_destination: raw(tokens.owner),
      custom_payload: null,
      decoded_custom_payload: null,
      forward_ton_amount: toNano('0.01').toString(),
    });
    const payload = Cell.fromBoc(Buffer.from(transfer['forward_payload'] as string, 'base64'))[0]!;
    const slice = payload.beginParse();
    expect(slice.loadUint(32)).toBe(0);
    expect(slice.loadStringTail()).toBe('hello jetton');
    expect(JSON.stringify(transfer['decoded_forward_payload'])).toContain('hello jetton');
    expect(transfer['trace_id']).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    // The same transfer: by the recipient (in), by the master, by the wallet; none out of the recipient.
    for (const query of [`owner_address=${raw(recipient)}&direction=in`, `jetton_master=${raw(tokens.minter)}`, `jetton_wallet=${raw(tokens.jettonWallet)}`, `address=${raw(recipient)}`]) {
      const found = (await v3(`/jetton/transfers?${query}`)).body['jetton_transfers'] as Json[];
      expect(found.map((t) => t['transaction_hash'])).toEqual([transfer['transaction_hash']]);
    }
    expect((await v3(`/jetton/transfers?owner_address=${raw(recipient)}&direction=out`)).body['jetton_transfers']).toEqual([]);
    // The transaction named is the jetton wallet's, with the lt the transfer names.
    const tx = await v3(`/transactions?hash=${encodeURIComponent(transfer['transaction_hash'] as string)}`);
    const [row] = tx.body['transactions'] as Json[];
    expect(row).toMatchObject({ account: raw(tokens.jettonWallet), lt: transfer['transaction_lt'] });
  });

  it('lists the burn with its amount and response destination', async () => {
    const { status, body } = await v3(`/jetton/burns?address=${encodeURIComponent(tokens.owner.toString())}`);
    expect(status).toBe(200);
    expect(body['jetton_burns']).toEqual([
      expect.objectContaining({
        query_id: '8',
        owner: raw(tokens.owner),
        jetton_wallet: raw(tokens.jettonWallet),
        jetton_master: raw(tokens.minter),
        amount: '100',
        response_destination: raw(tokens.owner),
        custom_payload: null,
        transaction_aborted: false,
      }),
    ]);
    expect((await v3(`/jetton/burns?jetton_master=${raw(tokens.minter)}&start_utime=0`)).body['jetton_burns']).toHaveLength(1);
    expect((await v3(`/jetton/burns?jetton_wallet=${raw(secondWallet)}`)).body['jetton_burns']).toEqual([]);
  });

  it('lists the NFT collection with the next index its get_collection_data gives', async () => {
    const { status, body } = await v3(`/nft/collections?collection_address=${encodeURIComponent(tokens.collection.toString())}`);
    expect(status).toBe(200);
    const data = await getMethod(tokens.collection, 'get_collection_data');
    expect(body['nft_collections']).toEqual([
      expect.objectContaining({
        address: raw(tokens.collection),
        owner_address: raw(tokens.owner),
        next_item_index: BigInt(data[0]![1] as string).toString(),
        collection_content: { uri: tokens.collectionUri },
      }),
    ]);
    expect((await v3(`/nft/collections?owner_address=${raw(tokens.owner)}`)).body['nft_collections']).toHaveLength(1);
  });

  it('lists the item, owned by the recipient after the transfer as its get_nft_data says, with its full content', async () => {
    const { status, body } = await v3(`/nft/items?collection_address=${raw(tokens.collection)}&index=0`);
    expect(status).toBe(200);
    const items = body['nft_items'] as Json[];
    expect(items).toHaveLength(1);
    const data = await getMethod(tokens.item, 'get_nft_data');
    const owner = Cell.fromBoc(Buffer.from((data[3]![1] as { bytes: string }).bytes, 'base64'))[0]!.beginParse().loadAddress();
    expect(owner.equals(recipient)).toBe(true);
    expect(items[0]).toMatchObject({
      address: raw(tokens.item),
      init: true,
      index: '0',
      collection_address: raw(tokens.collection),
      owner_address: raw(recipient),
      content: { uri: tokens.itemUri },
      on_sale: false,
    });
    expect((items[0]!['collection'] as Json)['address']).toBe(raw(tokens.collection));
    expect((await v3(`/nft/items?owner_address=${raw(recipient)}`)).body['nft_items']).toHaveLength(1);
    expect((await v3(`/nft/items?owner_address=${raw(tokens.owner)}`)).body['nft_items']).toEqual([]);
    expect(await v3('/nft/items?index=0')).toEqual({ status: 422, body: { error: 'index parameter is not allowed without the collection_address' } });
    expect(await v3(`/nft/items?collection_address=${raw(tokens.collection)}&index=x1`)).toEqual({ status: 422, body: { error: 'index should contain digits only' } });
  });

  it('lists the NFT transfer with its old and new owner, forward amount and payload', async () => {
    const { status, body } = await v3(`/nft/transfers?owner_address=${raw(tokens.owner)}&direction=out`);
    expect(status).toBe(200);
    const transfers = body['nft_transfers'] as Json[];
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({
      query_id: '9',
      nft_address: raw(tokens.item),
      nft_collection: raw(tokens.collection),
      old_owner: raw(tokens.owner),
      new_owner: raw(recipient),
      response_destination: raw(tokens.owner),
      forward_amount: toNano('0.01').toString(),
      transaction_aborted: false,
    });
    expect(JSON.stringify(transfers[0]!['decoded_forward_payload'])).toContain('hello nft');
    for (const query of [`owner_address=${raw(recipient)}&direction=in`, `item_address=${raw(tokens.item)}`, `collection_address=${raw(tokens.collection)}`]) {
      expect(((await v3(`/nft/transfers?${query}`)).body['nft_transfers'] as Json[]).map((t) => t['transaction_hash'])).toEqual([transfers[0]!['transaction_hash']]);
    }
  });

  it('feeds the detected wallets and items to the action classifier: the transfer names its asset, the NFT move is an nft_transfer', async () => {
    const transfer = ((await v3(`/jetton/transfers?jetton_wallet=${raw(tokens.jettonWallet)}`)).body['jetton_transfers'] as Json[])[0]!;
    const jettonActions = (await v3(`/actions?trace_id=${encodeURIComponent(transfer['trace_id'] as string)}`)).body['actions'] as Json[];
    const jettonAction = jettonActions.find((a) => a['type'] === 'jetton_transfer');
    expect(jettonAction?.['details']).toMatchObject({ asset: raw(tokens.minter), sender: raw(tokens.owner), receiver: raw(recipient), amount: '1000' });
    const nft = ((await v3(`/nft/transfers?item_address=${raw(tokens.item)}`)).body['nft_transfers'] as Json[])[0]!;
    const nftActions = (await v3(`/actions?trace_id=${encodeURIComponent(nft['trace_id'] as string)}`)).body['actions'] as Json[];
    expect(nftActions.map((a) => a['type'])).toContain('nft_transfer');
  });

  it('answers the token lists, actions and traces from the answer threads with the bytes of the old paths (the driver\'s rows, the converters, JSON.stringify)', async () => {
    const reads = v3DatabaseOf(stack.server.services.index!.store.readPool);
    const queryOf = (path: string) => {
      const query: Record<string, string[]> = {};
      for (const [key, value] of new URL(path, 'http://x').searchParams) (query[key] ??= []).push(value);
      return new V3Query(query);
    };
    const recipientWallet = await walletOf(recipient);
    type Old = (context: RouteContext, path: string) => Promise<unknown>;
    const walletsOld: Old = async (context, path) => {
      const { paging, ...filter } = jettonWallets.parse(queryOf(path));
      const rows = await queryJettonWallets(reads, filter, paging);
      return { jetton_wallets: rows.map(toJettonWalletJson), ...(await bookAndMetadataOf(context, rows.flatMap((r) => [r.address, r.owner, r.jetton]))) };
    };
    const transfersOld: Old = async (context, path) => {
      const { utime, lt, paging, ...filter } = jettonTransfers.parse(queryOf(path));
      const rows = await queryJettonTransfers(reads, { ...filter, ...utime, ...lt }, paging);
      return {
        jetton_transfers: rows.map(toJettonTransferJson),
        ...(await bookAndMetadataOf(context, rows.flatMap((r) => [r.source, r.destination, r.jetton_wallet_address, r.jetton_master_address, r.response_destination]))),
      };
    };
    const itemsOld: Old = async (context, path) => {
      const { paging, includeOnSale: _onSale, ...filter } = nftItems.parse(queryOf(path));
      void _onSale;
      const rows = await queryNftItems(reads, filter, paging);
      return { nft_items: rows.map(toNftItemJson), ...(await bookAndMetadataOf(context, rows.flatMap((r) => [r.address, r.collection_address, r.owner_address]))) };
    };
    const nftTransfersOld: Old = async (context, path) => {
      const { utime, lt, paging, ...filter } = nftTransfers.parse(queryOf(path));
      const rows = await queryNftTransfers(reads, { ...filter, ...utime, ...lt }, paging);
      return {
        nft_transfers: rows.map(toNftTransferJson),
        ...(await bookAndMetadataOf(context, rows.flatMap((r) => [r.nft_item_address, r.nft_collection_address, r.old_owner, r.new_owner, r.response_destination]))),
      };
    };
    const actionsOld: Old = (context, path) => actionsResponse(context, actionsRequest(queryOf(path)));
    const tracesOld: Old = async (context, path) => {
      const old = await tracesResponse(context, tracesRequest(queryOf(path), false));
      return { traces: old.traces, address_book: old.addressBook, metadata: old.metadata };
    };
    const transfer = ((await v3(`/jetton/transfers?jetton_wallet=${raw(tokens.jettonWallet)}`)).body['jetton_transfers'] as Json[])[0]!;
    const traceId = Buffer.from(transfer['trace_id'] as string, 'base64').toString('hex');
    const cases: [string, Old][] = [
      [`/jetton/wallets?jetton_address=${raw(tokens.minter)}&sort=desc`, walletsOld],
      [`/jetton/wallets?owner_address=${raw(secondOwner)}`, walletsOld],
      [`/jetton/wallets?address=${raw(recipientWallet)}&address=${raw(tokens.jettonWallet)}`, walletsOld],
      [`/jetton/wallets?limit=10&exclude_zero_balance=true`, walletsOld],
      [`/jetton/transfers?owner_address=${raw(tokens.owner)}&direction=out`, transfersOld],
      [`/jetton/transfers?jetton_master=${raw(tokens.minter)}&sort=asc`, transfersOld],
      [`/jetton/transfers?start_utime=0&end_utime=2147483647`, transfersOld],
      [`/nft/items?limit=10`, itemsOld],
      [`/nft/items?owner_address=${raw(recipient)}`, itemsOld],
      [`/nft/items?collection_address=${raw(tokens.collection)}`, itemsOld],
      [`/nft/transfers?owner_address=${raw(recipient)}&direction=in`, nftTransfersOld],
      [`/nft/transfers?collection_address=${raw(tokens.collection)}`, nftTransfersOld],
      [`/actions?trace_id=${traceId}&include_accounts=true`, actionsOld],
      [`/actions?account=${raw(tokens.owner)}&limit=100`, actionsOld],
      [`/traces?trace_id=${traceId}&include_actions=true`, tracesOld],
      [`/traces?account=${raw(tokens.owner)}&include_actions=true&limit=50`, tracesOld],
    ];
    const threaded = async () => (await v3AnswerTasks.get()).values.filter((v) => v.labels['where'] === 'thread' && v.labels['outcome'] === 'ok').reduce((sum, v) => sum + v.value, 0);
    const threadedBefore = await threaded();
    let rows = 0;
    for (const noAddressBook of [false, true]) {
      const context: RouteContext = { db: reads, settings: { noAddressBook, noMetadata: noAddressBook, testnet: false } };
      for (const [path, old] of cases) {
        const headers: Record<string, string> = noAddressBook ? { 'X-No-Address-Book': '1', 'X-No-Metadata': '1' } : {};
        const res = await fetch(`${stack.url}/api/v3${path}`, { headers });
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
        const reference = JSON.stringify(await old(context, path));
        expect({ path, noAddressBook, answer: await res.text() }).toEqual({ path, noAddressBook, answer: reference });
        const parsed = JSON.parse(reference) as Record<string, unknown>;
        const list = Object.values(parsed)[0] as unknown[];
        expect({ path, rows: list.length > 0 }).toEqual({ path, rows: true });
        rows += list.length;
        if (!noAddressBook) expect({ path, book: Object.keys(parsed['address_book'] as Json).length > 0 }).toEqual({ path, book: true });
      }
    }
    expect(rows).toBeGreaterThan(30);
    // Each of those answers was assembled in a thread.
    expect((await threaded()) - threadedBefore).toBeGreaterThanOrEqual(cases.length * 2);
    // The comparison sees an altered assembly: a transfer's row changed, or the flags.
    const context: RouteContext = { db: reads, settings: { noAddressBook: false, noMetadata: false, testnet: false } };
    const path = `/jetton/transfers?jetton_master=${raw(tokens.minter)}`;
    const reference = JSON.stringify(await transfersOld(context, path));
    const { utime, lt, paging, ...filter } = jettonTransfers.parse(queryOf(path));
    const page = await queryTokenPageText(reads, 'jetton_transfers', buildJettonTransfersStatement({ ...filter, ...utime, ...lt }, paging), true);
    const metadata = (JSON.parse(reference) as { metadata: Record<string, never> }).metadata;
    const task = { kind: 'tokens', list: 'jetton_transfers', rows: page.rows, codes: page.codes ?? null, testnet: false, metadata } as const;
    expect(assembleInline(task).toString()).toBe(reference);
    expect(assembleInline({ ...task, rows: String(task.rows).replace('"amount":"1000"', '"amount":"1001"') }).toString()).not.toBe(reference);
    expect(assembleInline({ ...task, testnet: true }).toString()).not.toBe(reference);
    expect(assembleInline({ ...task, list: 'nft_transfers' }).toString()).not.toBe(reference);
  });
});
