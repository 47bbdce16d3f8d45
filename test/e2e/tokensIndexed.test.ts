import { Address, beginCell, Cell, toNano } from '@ton/core';
import { internal, TonClient } from '@ton/ton';
import { createTestDatabase, INDEX_BACKENDS, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { deployTokensOn, indexCaughtUp, transferAndBurnJetton, type DeployedTokens } from '../helpers/tokens';
import { callV2 } from '../helpers/v2Calls';
import { transferFromWallet } from '../helpers/walletActions';
import { storeNftTransfer, storeTextComment } from '../../src/tlb';

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
    stack = await startLocalStack(['--shards', '2', '--block-interval', '300', '--index', 'on', ...(db.url ? ['--database-url', db.url] : [])]);
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
});
