import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Address, beginCell, Cell, contractAddress, Dictionary, toNano } from '@ton/core';
import { TonClient } from '@ton/ton';
import {
  changeDnsRecordBody,
  dnsItemAddress,
  dnsItemIndex,
  dnsRecord,
  dnsRootInit,
  fillUpBody,
  ownDomains,
  sendAtChainTime,
  sha256,
} from '../helpers/dns';
import { createTestDatabase, INDEX_BACKENDS, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { deployTokensOn, indexCaughtUp, onchainContent, type DeployedTokens } from '../helpers/tokens';
import { until } from '../helpers/waiting';
import { loadV3Spec, V3_SPEC_PATH, V3_SPEC_PRESENT, type V3SpecValidator } from '../v3/v3Spec';

jest.setTimeout(300_000);

type Json = Record<string, unknown>;

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

/**
 * TON DNS and token metadata on the embedded chain. A DNS root with mainnet's `.ton` code
 * (test/helpers/dns.ts) but its own on-chain content, so its own address, named by
 * `--dns-collections`: three domains bought by the owner (their auctions ended by moving the chain
 * clock), their records set by change_dns_record, alice's site changed afterwards; they answer
 * dns/records by domain and by wallet, and the owner's address book names its shortest domain
 * whose wallet record is itself. Metadata: an on-chain jetton (name, symbol, decimals, a chunked
 * description) and the DNS collection's on-chain content are decoded at once; a semi-chain NFT
 * collection and an off-chain item are fetched (`--metadata-fetch`, loopback allowed by
 * `--metadata-fetch-private`) from a local HTTP server, the on-chain name over the document's.
 */
describe.each(INDEX_BACKENDS)('DNS and metadata indexed from the local chain (%s)', (backend) => {
  let db: TestDatabase;
  let stack: LocalStack;
  let client: TonClient;
  let tokens: DeployedTokens;
  let server: http.Server;
  let base: string;
  let spec: V3SpecValidator | undefined;
  const requests: string[] = [];
  const recipient = new Address(0, Buffer.alloc(32, 0x6d));
  const adnl = Buffer.alloc(32, 0xab);
  const bag = Buffer.alloc(32, 0xcd);
  const resolver = new Address(0, Buffer.alloc(32, 0x77));
  let collection: Address;
  const dnsCollectionContent = onchainContent({
    name: 'Local DNS',
    description: 'domains of the local chain',
    image: 'https://example.org/dns.png',
  });

  async function v3(path: string): Promise<{ status: number; body: Json }> {
    const res = await fetch(`${stack.url}/api/v3${path}`);
    return { status: res.status, body: (await res.json()) as Json };
  }

  function checked(route: string, body: Json): Json {
    if (spec) expect([route, spec.check(route, body)]).toEqual([route, null]);
    return body;
  }

  beforeAll(async () => {
    if (V3_SPEC_PRESENT) spec = loadV3Spec();
    else console.warn(`${V3_SPEC_PATH} is absent: answers are not validated against toncenter's spec`);
    server = http.createServer((req, res) => {
      requests.push(req.url ?? '');
      res.setHeader('content-type', 'application/json');
      if (req.url === '/collection.json')
        res.end(
          JSON.stringify({ name: 'Off-chain collection name', description: 'from the document', image: 'https://example.org/c.png' }),
        );
      else if (req.url === '/items/0.json')
        res.end(JSON.stringify({ name: 'Item zero', description: 'an off-chain item', attributes: [{ trait_type: 'k', value: 'v' }] }));
      else {
        res.statusCode = 404;
        res.end('{}');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const collectionInit = dnsRootInit(dnsCollectionContent);
    collection = contractAddress(0, collectionInit);
    db = await createTestDatabase(backend, 'names');
    stack = await startLocalStack([
      '--block-interval',
      '300',
      '--index',
      'on',
      ...(db.url ? ['--database-url', db.url] : []),
      '--dns-collections',
      collection.toString(),
      '--metadata-fetch',
      '--metadata-fetch-private',
      '--metadata-fetch-timeout',
      '5000',
    ]);
    client = new TonClient({ endpoint: `${stack.api}/jsonRPC` });
    // An on-chain jetton whose description is chunked (TEP-64 chunks#01), a semi-chain collection.
    const chunks = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
    chunks.set(0, beginCell().storeBuffer(Buffer.from('chunked ')).endCell());
    chunks.set(1, beginCell().storeBuffer(Buffer.from('description')).endCell());
    const attributes = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
    const snake = (text: string) => beginCell().storeUint(0, 8).storeBuffer(Buffer.from(text)).endCell();
    attributes.set(sha256('name'), snake('On-chain jetton'));
    attributes.set(sha256('symbol'), snake('OCJ'));
    attributes.set(sha256('decimals'), snake('6'));
    attributes.set(sha256('description'), beginCell().storeUint(1, 8).storeDict(chunks).endCell());
    const jettonContent = beginCell().storeUint(0, 8).storeDict(attributes).endCell();
    tokens = await deployTokensOn(stack, client, jettonContent, {
      collectionContent: onchainContent({ uri: `${base}/collection.json`, name: 'On-chain collection name' }),
      itemBase: `${base}/items/`,
    });
    const owner = tokens.owner;
    await sendAtChainTime(stack, client, 0, collection, toNano('1'), fillUpBody(), collectionInit);
    // The tokens' owner is wallet 0: it buys the three domains and, alone in their auctions, owns them.
    expect(owner.equals(stack.localnet.wallets.wallets[0]!.address)).toBe(true);
    await ownDomains(stack, client, collection, ['alice', 'alicewonder', 'bobby']);
    const set = (name: string, category: string, value: Cell) =>
      sendAtChainTime(stack, client, 0, dnsItemAddress(collection, name), toNano('0.1'), changeDnsRecordBody(category, value));
    await set('alice', 'wallet', dnsRecord.wallet(owner));
    await set('alicewonder', 'wallet', dnsRecord.wallet(owner));
    await set('alicewonder', 'storage', dnsRecord.storage(bag));
    await set('bobby', 'wallet', dnsRecord.wallet(recipient));
    await set('bobby', 'dns_next_resolver', dnsRecord.nextResolver(resolver));
    // A later change by the owner: alice gets a site record.
    await set('alice', 'site', dnsRecord.site(adnl));
    await indexCaughtUp(stack);
  });

  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  it('answers dns/records by domain with the records read from the item (the site set after the deploy)', async () => {
    const alice = dnsItemAddress(collection, 'alice');
    const { status, body } = await v3('/dns/records?domain=alice.ton');
    expect(status).toBe(200);
    checked('/dns/records', body);
    expect(body['records']).toEqual([
      {
        nft_item_address: raw(alice),
        nft_item_owner: raw(tokens.owner),
        domain: 'alice.ton',
        dns_next_resolver: null,
        dns_wallet: raw(tokens.owner),
        dns_site_adnl: adnl.toString('base64'),
        dns_storage_bag_id: null,
      },
    ]);
    expect(Object.keys(body['address_book'] as Json).sort()).toEqual([raw(alice), raw(tokens.owner)].sort());
    const bob = await v3('/dns/records?domain=bobby.ton');
    expect(bob.body['records']).toEqual([
      expect.objectContaining({ domain: 'bobby.ton', dns_wallet: raw(recipient), dns_next_resolver: raw(resolver), dns_site_adnl: null }),
    ]);
  });

  it('answers dns/records by wallet, shortest domain first, paged', async () => {
    const { body } = await v3(`/dns/records?wallet=${encodeURIComponent(tokens.owner.toString())}`);
    checked('/dns/records', body);
    const records = body['records'] as Json[];
    expect(records.map((r) => r['domain'])).toEqual(['alice.ton', 'alicewonder.ton']);
    expect(records[1]).toMatchObject({ dns_storage_bag_id: bag.toString('base64') });
    const second = await v3(`/dns/records?wallet=${raw(tokens.owner)}&limit=1&offset=1`);
    expect((second.body['records'] as Json[]).map((r) => r['domain'])).toEqual(['alicewonder.ton']);
    expect(await v3('/dns/records')).toEqual({ status: 422, body: { error: 'either wallet address or domain is required' } });
    expect(await v3(`/dns/records?domain=alice.ton&wallet=${raw(tokens.owner)}`)).toEqual({
      status: 422,
      body: { error: 'provide either wallet address or domain, not both' },
    });
    expect((await v3('/dns/records?domain=nobody.ton')).body['records']).toEqual([]);
  });

  it("names the owner's shortest self-pointing domain in addressBook, none for a wallet record's other target", async () => {
    const { status, body } = await v3(`/addressBook?address=${raw(tokens.owner)}&address=${raw(recipient)}`);
    expect(status).toBe(200);
    checked('/addressBook', body);
    expect((body[raw(tokens.owner)] as Json)['domain']).toBe('alice.ton');
    // bobby.ton's wallet is the recipient, but the recipient does not own it (toncenter's rule).
    expect((body[raw(recipient)] as Json)['domain']).toBeNull();
  });

  it('decodes the on-chain jetton content (snake and chunked) in metadata, with the wallet pointing at its master', async () => {
    const { status, body } = await v3(
      `/metadata?address=${raw(tokens.minter)}&address=${encodeURIComponent(tokens.jettonWallet.toString())}&address=not-an-address`,
    );
    expect(status).toBe(200);
    checked('/metadata', body);
    expect(body[raw(tokens.minter)]).toEqual({
      is_indexed: true,
      token_info: [
        {
          valid: true,
          type: 'jetton_masters',
          name: 'On-chain jetton',
          symbol: 'OCJ',
          description: 'chunked description',
          is_nsfw: false,
          is_scam: false,
          extra: { decimals: '6' },
        },
      ],
    });
    expect(body[raw(tokens.jettonWallet)]).toEqual({
      is_indexed: true,
      token_info: [
        {
          valid: true,
          type: 'jetton_wallets',
          extra: { owner: raw(tokens.owner), jetton: raw(tokens.minter), balance: tokens.jettonAmount.toString() },
        },
      ],
    });
    expect(Object.keys(body).sort()).toEqual([raw(tokens.minter), raw(tokens.jettonWallet)].sort());
    const masters = await v3(`/jetton/masters?address=${raw(tokens.minter)}`);
    checked('/jetton/masters', masters.body);
    expect((masters.body['metadata'] as Json)[raw(tokens.minter)]).toEqual(body[raw(tokens.minter)]);
    // accountStates carries it too (ton-index-go's QueryAccountStates reads metadata of its accounts).
    const states = await v3(`/accountStates?address=${raw(tokens.minter)}`);
    checked('/accountStates', states.body);
    expect((states.body['metadata'] as Json)[raw(tokens.minter)]).toEqual(body[raw(tokens.minter)]);
    const none = await fetch(`${stack.url}/api/v3/jetton/masters?address=${raw(tokens.minter)}`, { headers: { 'X-No-Metadata': 'true' } });
    expect(((await none.json()) as Json)['metadata']).toEqual({});
  });

  it("decodes the DNS collection's on-chain content and gives a DNS item its domain", async () => {
    const alice = dnsItemAddress(collection, 'alice');
    const { body } = await v3(`/metadata?address=${raw(collection)}&address=${raw(alice)}`);
    checked('/metadata', body);
    expect(body[raw(collection)]).toEqual({
      is_indexed: true,
      token_info: [
        {
          valid: true,
          type: 'nft_collections',
          name: 'Local DNS',
          description: 'domains of the local chain',
          image: 'https://example.org/dns.png',
          is_nsfw: false,
          is_scam: false,
        },
      ],
    });
    const index = dnsItemIndex('alice').toString();
    expect(body[raw(alice)]).toEqual({
      is_indexed: true,
      token_info: [{ valid: true, type: 'nft_items', nft_index: index, is_nsfw: false, is_scam: false, extra: { domain: 'alice.ton' } }],
    });
    const items = await v3(`/nft/items?address=${raw(alice)}`);
    expect([items.status, items.body['error']]).toEqual([200, undefined]);
    checked('/nft/items', items.body);
    expect((items.body['nft_items'] as Json[])[0]).toMatchObject({
      index,
      collection_address: raw(collection),
      owner_address: raw(tokens.owner),
      content: { domain: 'alice.ton' },
    });
  });

  it('fetches off-chain documents in the background (not indexed until then), the on-chain name over the fetched one', async () => {
    const addresses = `address=${raw(tokens.collection)}&address=${raw(tokens.item)}`;
    // The first read finds no document (nothing asked for them before): not indexed, the fetch handed off.
    const first = await v3(`/metadata?${addresses}`);
    checked('/metadata', first.body);
    expect(first.body).toEqual({
      [raw(tokens.collection)]: { is_indexed: false, token_info: [{ type: 'nft_collections' }] },
      [raw(tokens.item)]: { is_indexed: false, token_info: [{ type: 'nft_items', nft_index: '0' }] },
    });
    let body: Json = {};
    await until(
      async () => {
        body = (await v3(`/metadata?${addresses}`)).body;
        return Object.values(body).every((m) => (m as Json)['is_indexed'] === true) && Object.keys(body).length === 2;
      },
      60_000,
      'the documents are fetched',
    );
    checked('/metadata', body);
    expect(body[raw(tokens.collection)]).toEqual({
      is_indexed: true,
      token_info: [
        {
          valid: true,
          type: 'nft_collections',
          name: 'On-chain collection name',
          description: 'from the document',
          image: 'https://example.org/c.png',
          is_nsfw: false,
          is_scam: false,
          extra: { uri: `${base}/collection.json` },
        },
      ],
    });
    expect(body[raw(tokens.item)]).toEqual({
      is_indexed: true,
      token_info: [
        {
          valid: true,
          type: 'nft_items',
          name: 'Item zero',
          description: 'an off-chain item',
          nft_index: '0',
          is_nsfw: false,
          is_scam: false,
          extra: { attributes: [{ trait_type: 'k', value: 'v' }], uri: `${base}/items/0.json` },
        },
      ],
    });
    // Each document was fetched once (the cache answers the later reads).
    expect(requests.filter((r) => r === '/collection.json')).toHaveLength(1);
    expect(requests.filter((r) => r === '/items/0.json')).toHaveLength(1);
    const items = await v3(`/nft/items?collection_address=${raw(tokens.collection)}`);
    checked('/nft/items', items.body);
    expect((items.body['metadata'] as Json)[raw(tokens.item)]).toEqual(body[raw(tokens.item)]);
  });
});
