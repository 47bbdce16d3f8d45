import { Address, Cell, contractAddress, toNano, type StateInit } from '@ton/core';
import { TonClient } from '@ton/ton';
import {
  advanceChainClock,
  buyDomainBody,
  changeDnsRecordBody,
  DNS_CODE,
  dnsItemAddress,
  dnsItemIndex,
  dnsRecord,
  dnsRootInit,
  fillUpBody,
  localnetControl,
  releaseBody,
  renewBody,
  sendAtChainTime,
  sha256,
} from '../helpers/dns';
import { createTestDatabase, INDEX_BACKENDS, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { indexCaughtUp } from '../helpers/tokens';
import { getMethodOk, type V2StackEntry } from '../helpers/v2Calls';
import { v3Caller } from '../helpers/v3Calls';
import { loadV3DocsSpec, loadV3Spec, V3_DOCS_SPEC_PRESENT, V3_SPEC_PRESENT, type V3SpecValidator } from '../v3/v3Spec';

jest.setTimeout(300_000);

type Json = Record<string, unknown>;
type V2Entry = V2StackEntry;

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const v2Int = (entry: V2Entry | undefined) => {
  const text = entry![1] as string;
  return text.startsWith('-') ? -BigInt(text.slice(1)) : BigInt(text);
};
const v2Address = (entry: V2Entry | undefined) =>
  Cell.fromBase64((entry![1] as { bytes: string }).bytes)
    .beginParse()
    .loadAddressAny();

/** What toncenter's classifier names its DNS item code by (indexer/events/blocks/auction.py). */
const MAINNET_ITEM_CODE_HASH = 'i1/8nr/TkGTY1fVuRlnIJrt1k5I/XKSHKL5NYK9vUfk=';
const dnsCategory = (category: string) => sha256(category).toString('hex');
const MAINNET_ROOT = '0:B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF';

/**
 * `.ton` DNS on the embedded chain with mainnet's code (test/fixtures/contracts/dns.json, built by
 * test/fixtures/contracts/build.ts from ton-blockchain/dns-contract; the item's code hash is the
 * one toncenter names, and the root deployed with mainnet's content has mainnet's address, so the
 * index takes it for the `.ton` root without `--dns-collections`). Wallet 0 opens the auction of
 * `localdomain.ton` by buying it from the root, wallet 1 outbids it; the chain clock moves past
 * the auction's end; wallet 1's first change_dns_record hands it the item (its bid paid to the
 * root), then it sets the site and next resolver, sets and deletes a storage record, and renews
 * the domain a day later. The routes answer what the contracts' get-methods give, and each step
 * is its action. On PostgreSQL and on PGlite.
 */
describe.each(INDEX_BACKENDS)('.ton DNS with mainnet code on the local chain (%s)', (backend) => {
  let db: TestDatabase;
  let stack: LocalStack;
  let client: TonClient;
  let wallets: Address[];
  let root: Address;
  let item: Address;
  const name = 'localdomain';
  const adnl = Buffer.alloc(32, 0xab);
  const bag = Buffer.alloc(32, 0xcd);
  const resolver = new Address(0, Buffer.alloc(32, 0x77));
  const spec: V3SpecValidator | undefined = V3_SPEC_PRESENT ? loadV3Spec() : undefined;
  const docsSpec: V3SpecValidator | undefined = V3_DOCS_SPEC_PRESENT ? loadV3DocsSpec() : undefined;
  /** get-method and route answers taken along the way (the routes: while wallet 1 owns the domain). */
  const seen: {
    auctionAfterBid?: V2Entry[];
    fillUpBeforeRenew?: bigint;
    fillUpAfterRenew?: bigint;
    renewedAt?: number;
    ownerWhileOwned?: V2Entry[];
    records?: Json;
    book?: Json;
    items?: Json;
  } = {};

  /** A v3 answer (a 200, validated against the spec when present). */
  const v3 = (path: string) => v3Caller(stack.url, spec, docsSpec).ok(path);
  const getMethod = (address: Address, method: string) => getMethodOk(stack, address, method);
  /** The actions naming an account, oldest first, of the types a client of `version` accepts. */
  const actionsOf = async (account: Address, version = 'latest') =>
    (await v3(`/actions?account=${raw(account)}&sort=asc&limit=100&supported_action_types=${version}`))['actions'] as Json[];

  const send = (from: number, to: Address, value: bigint, body: Cell, init?: StateInit) =>
    sendAtChainTime(stack, client, from, to, value, body, init);
  const advance = (seconds: number) => advanceChainClock(stack, seconds);

  beforeAll(async () => {
    db = await createTestDatabase(backend, 'dnsauction');
    const database = db.url ? ['--database-url', db.url] : [];
    stack = await startLocalStack(['--accounts', '2', '--block-interval', '300', '--index', 'on', ...database]);
    client = new TonClient({ endpoint: `${stack.api}/jsonRPC` });
    wallets = stack.localnet.wallets.wallets.filter((w) => w.version === 'v4r2').map((w) => w.address);
    const rootInit = dnsRootInit();
    root = contractAddress(0, rootInit);
    item = dnsItemAddress(root, name);
    await send(0, root, toNano('1'), fillUpBody(), rootInit);
    // Wallet 0 buys: the root deploys the item, whose auction opens with this bid (1 TON is the
    // least for 11 letters once the 2022 prices have decayed).
    await send(0, root, toNano('2'), buyDomainBody(name));
    // Wallet 1 outbids it (at least 5% more); wallet 0 gets its bid back (outbid_notification).
    await send(1, item, toNano('3'), Cell.EMPTY);
    seen.auctionAfterBid = await getMethod(item, 'get_auction_info');
    await indexCaughtUp(stack);
    // An hour (the auction's length since mid-2023) and a bit later the auction is over.
    await advance(3_700);
    await send(1, item, toNano('0.1'), changeDnsRecordBody('wallet', dnsRecord.wallet(wallets[1]!)));
    await send(1, item, toNano('0.1'), changeDnsRecordBody('site', dnsRecord.site(adnl)));
    await send(1, item, toNano('0.1'), changeDnsRecordBody('dns_next_resolver', dnsRecord.nextResolver(resolver)));
    await send(1, item, toNano('0.1'), changeDnsRecordBody('storage', dnsRecord.storage(bag)));
    await send(1, item, toNano('0.1'), changeDnsRecordBody('storage', null));
    seen.fillUpBeforeRenew = v2Int((await getMethod(item, 'get_last_fill_up_time'))[0]);
    await advance(86_400);
    seen.renewedAt = (await localnetControl(stack, 'status'))['now'] as number;
    await send(1, item, toNano('0.1'), renewBody(5n));
    seen.fillUpAfterRenew = v2Int((await getMethod(item, 'get_last_fill_up_time'))[0]);
    seen.ownerWhileOwned = await getMethod(item, 'get_nft_data');
    await indexCaughtUp(stack);
    seen.records = await v3(`/dns/records?domain=${name}.ton`);
    seen.book = await v3(`/addressBook?address=${raw(wallets[1]!)}&address=${raw(wallets[0]!)}`);
    seen.items = await v3(`/nft/items?collection_address=${raw(root)}`);
    // A year (366 days) without a renewal: wallet 0 releases the domain, whose auction opens again
    // with its payment as the first bid; the item pays wallet 1 what it held above 1 TON.
    await advance(31_622_400 + 60);
    await send(0, item, toNano('1.5'), releaseBody(9n));
    await indexCaughtUp(stack);
  });

  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
  });

  it("runs mainnet's code: the root has the .ton root's address and the item the code hash toncenter names", async () => {
    expect(raw(root)).toBe(MAINNET_ROOT);
    expect(DNS_CODE.item.hash().toString('base64')).toBe(MAINNET_ITEM_CODE_HASH);
    const state = await v3(`/accountStates?address=${raw(item)}&include_boc=false`);
    expect((state['accounts'] as Json[])[0]).toMatchObject({ code_hash: MAINNET_ITEM_CODE_HASH, status: 'active' });
    // The bid: wallet 1 leads, the auction's end an hour after it at least.
    expect(raw(v2Address(seen.auctionAfterBid![0]) as Address)).toBe(raw(wallets[1]!));
    expect(v2Int(seen.auctionAfterBid![1])).toBeGreaterThan(toNano('2.9'));
  });

  it('answers dns/records by domain and by wallet with the records dnsresolve gives (wallet, site, next resolver; storage deleted)', async () => {
    const body = seen.records!;
    expect(body['records']).toEqual([
      {
        nft_item_address: raw(item),
        nft_item_owner: raw(wallets[1]!),
        domain: `${name}.ton`,
        dns_next_resolver: raw(resolver),
        dns_wallet: raw(wallets[1]!),
        dns_site_adnl: adnl.toString('base64'),
        dns_storage_bag_id: null,
      },
    ]);
    const byWallet = await v3(`/dns/records?wallet=${raw(wallets[1]!)}`);
    expect((byWallet['records'] as Json[]).map((r) => r['domain'])).toEqual([`${name}.ton`]);
    expect(raw(v2Address(seen.ownerWhileOwned![3]) as Address)).toBe(raw(wallets[1]!));
  });

  it("names the winner's domain in addressBook, and lists the item with its domain and owner in nft/items", async () => {
    expect((seen.book![raw(wallets[1]!)] as Json)['domain']).toBe(`${name}.ton`);
    expect((seen.book![raw(wallets[0]!)] as Json)['domain']).toBeNull();
    expect(seen.items!['nft_items']).toEqual([
      expect.objectContaining({
        address: raw(item),
        index: dnsItemIndex(name).toString(),
        collection_address: raw(root),
        owner_address: raw(wallets[1]!),
        init: true,
        content: { domain: `${name}.ton` },
        code_hash: MAINNET_ITEM_CODE_HASH,
      }),
    ]);
  });

  it('renews: last_fill_up_time moves to the renewal, and the item is one year from expiring again', () => {
    expect(seen.fillUpAfterRenew).toBeGreaterThan(seen.fillUpBeforeRenew!);
    expect(Number(seen.fillUpAfterRenew)).toBeGreaterThanOrEqual(seen.renewedAt!);
  });

  it('after the release the item has no owner: its record shows none, and the address book no domain', async () => {
    const owner = await getMethod(item, 'get_nft_data');
    expect(owner[3]![0]).toBe('cell');
    expect(v2Address(owner[3])).toBeNull();
    const auction = await getMethod(item, 'get_auction_info');
    expect(raw(v2Address(auction[0]) as Address)).toBe(raw(wallets[0]!));
    const records = await v3(`/dns/records?domain=${name}.ton`);
    expect(records['records']).toEqual([expect.objectContaining({ nft_item_owner: null, dns_wallet: raw(wallets[1]!) })]);
    const book = await v3(`/addressBook?address=${raw(wallets[1]!)}`);
    expect((book[raw(wallets[1]!)] as Json)['domain']).toBeNull();
    const items = await v3(`/nft/items?address=${raw(item)}`);
    expect((items['nft_items'] as Json[])[0]).toMatchObject({ owner_address: null, content: { domain: `${name}.ton` } });
  });

  it('classifies each step as toncenter does: mint, bid and outbid, purchase, record changes, renewal, release', async () => {
    const byTrace = (actions: Json[]) => {
      const traces: string[] = [];
      const types = new Map<string, string[]>();
      for (const a of actions) {
        const id = a['trace_id'] as string;
        if (!types.has(id)) {
          traces.push(id);
          types.set(id, []);
        }
        types.get(id)!.push(a['type'] as string);
      }
      return traces.map((id) => types.get(id)!.sort());
    };
    const actions = await actionsOf(item);
    expect(byTrace(actions)).toEqual([
      ['contract_deploy', 'nft_mint'],
      ['auction_bid', 'auction_outbid'],
      ['change_dns', 'dns_purchase'],
      ['change_dns'],
      ['change_dns'],
      ['change_dns'],
      ['delete_dns'],
      ['renew_dns'],
      ['call_contract', 'dns_release'],
    ]);
    const one = (type: string) => actions.find((a) => a['type'] === type)!['details'];
    const index = dnsItemIndex(name).toString();
    expect(one('nft_mint')).toEqual({ owner: raw(root), nft_item: raw(item), nft_collection: raw(root), nft_item_index: index });
    expect(one('auction_bid')).toEqual({
      amount: toNano('3').toString(),
      bidder: raw(wallets[1]!),
      auction: raw(item),
      nft_item: raw(item),
      nft_collection: raw(root),
      nft_item_index: index,
    });
    expect(one('auction_outbid')).toMatchObject({
      auction_address: raw(item),
      bidder: raw(wallets[0]!),
      new_bidder: raw(wallets[1]!),
      nft_item: raw(item),
    });
    // The returned bid: what wallet 0's bid left the item after the root's fees.
    expect(BigInt((one('auction_outbid') as Json)['amount'] as string)).toBeGreaterThan(toNano('1.9'));
    const purchase = one('dns_purchase') as Json;
    expect(purchase).toMatchObject({
      nft_collection: raw(root),
      nft_item: raw(item),
      nft_item_index: index,
      new_owner: raw(wallets[1]!),
      query_id: '0',
    });
    expect(purchase['price']).toBe(purchase['payout_amount']);
    // The item keeps 1 TON: it pays the root the rest of the winning bid.
    expect(BigInt(purchase['price'] as string)).toBeGreaterThan(toNano('1.5'));
    expect(BigInt(purchase['price'] as string)).toBeLessThanOrEqual(toNano('3'));
    const changes = actions.filter((a) => a['type'] === 'change_dns').map((a) => (a['details'] as Json)['value'] as Json);
    expect(changes.map((v) => v['sum_type'])).toEqual(['DNSSmcAddress', 'DNSAdnlAddress', 'DNSNextResolver', 'DNSStorageAddress']);
    expect(changes[0]).toMatchObject({ dns_smc_address: raw(wallets[1]!) });
    expect(changes[1]).toMatchObject({ dns_adnl_address: adnl.toString('hex') });
    expect(changes[2]).toMatchObject({ dns_next_resolver_address: raw(resolver) });
    expect(one('delete_dns')).toMatchObject({
      hash: dnsCategory('storage'),
      source: raw(wallets[1]!),
      asset: raw(item),
      nft_collection: raw(root),
    });
    expect(one('renew_dns')).toMatchObject({ source: raw(wallets[1]!), asset: raw(item) });
    expect(one('dns_release')).toEqual({
      query_id: '9',
      source: raw(wallets[0]!),
      nft_item: raw(item),
      nft_collection: raw(root),
      nft_item_index: index,
      value: toNano('1.5').toString(),
    });
    // A v1 client sees the steps of the v3 types instead (the fill-up and the outbid as calls).
    const v1 = byTrace(await actionsOf(item, 'v1'));
    expect(v1[1]).toEqual(['auction_bid', 'call_contract']);
    expect(v1[2]).toEqual(['call_contract', 'change_dns']);
  });
});
