import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Address, beginCell, Cell, contractAddress, internal, toNano, type StateInit } from '@ton/core';
import type { TonClient } from '@ton/ton';
import { V4R2_BASE_SUBWALLET_ID } from '../../src/localnet/wallets';
import { nextBlock, type LocalStack } from './localStack';
import { transferFromWallet } from './walletActions';

/**
 * Mainnet's `.ton` DNS contracts (ton-blockchain/dns-contract, built by
 * test/fixtures/contracts/build.ts into dns.json with the code hashes mainnet has): the root
 * collection deploys an item on a comment naming the domain (op 0) and opens its auction with
 * that payment as the first bid; the item takes bids (plain transfers, each 5% over the last,
 * the last one given back with an outbid notification) until the auction's end (an hour after
 * the purchase since mid-2023, pushed to an hour after a late bid), hands itself to the best
 * bidder on the first message with an opcode after it (paying the bid to the root with
 * `fill_up`), and then takes `change_dns_record` from its owner (key 0 without a value renews it).
 */

interface BuiltCode {
  codeBoc: string;
  codeHash: string;
}

const built = JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures/contracts/dns.json'), 'utf8')) as {
  collection: BuiltCode;
  item: BuiltCode;
};

export const DNS_CODE = {
  collection: Cell.fromBase64(built.collection.codeBoc),
  item: Cell.fromBase64(built.item.codeBoc),
} as const;

export const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest();

/** The content mainnet's `.ton` root was deployed with: with it the root's address is mainnet's. */
export const MAINNET_ROOT_CONTENT = beginCell().storeUint(1, 8).storeStringTail('https://dns.ton.org/collection.json').endCell();

/** A root's state init (data: content and item code, as nft-collection.fc stores them). */
export function dnsRootInit(content: Cell = MAINNET_ROOT_CONTENT): StateInit {
  return { code: DNS_CODE.collection, data: beginCell().storeRef(content).storeRef(DNS_CODE.item).endCell() };
}

/**
 * An item's index: the root's `slice_hash` of the name (without ".ton"), that is the hash of a cell
 * holding its bytes (not the SHA-256 of the bytes themselves).
 */
export function dnsItemIndex(name: string): bigint {
  return BigInt('0x' + beginCell().storeBuffer(Buffer.from(name, 'utf8')).endCell().hash().toString('hex'));
}

/** The item of `name` under `root` (its state init: the item code and index + root, as the root computes it). */
export function dnsItemAddress(root: Address, name: string): Address {
  const data = beginCell().storeUint(dnsItemIndex(name), 256).storeAddress(root).endCell();
  return contractAddress(0, { code: DNS_CODE.item, data });
}

/** `fill_up`: the root's only opcode that just takes the coins (it refuses an empty body), so its deploy message. */
export function fillUpBody(): Cell {
  return beginCell().storeUint(0x370fec51, 32).storeUint(0, 64).endCell();
}

/** The root's purchase request: op 0 and the name as the comment's text (4 to 126 of a-z, 0-9, '-'). */
export function buyDomainBody(name: string): Cell {
  return beginCell().storeUint(0, 32).storeStringTail(name).endCell();
}

/** `get_static_data`: any message with an opcode after the auction's end hands the item to its winner. */
export function getStaticDataBody(queryId = 0n): Cell {
  return beginCell().storeUint(0x2fcb26a2, 32).storeUint(queryId, 64).endCell();
}

/** `dns_balance_release`: after a year without a renewal anyone may put the domain back on auction. */
export function releaseBody(queryId = 0n): Cell {
  return beginCell().storeUint(0x4ed14b65, 32).storeUint(queryId, 64).endCell();
}

/** change_dns_record with key 0 and no value: the item's `last_fill_up_time` becomes now (a renewal). */
export function renewBody(queryId = 0n): Cell {
  return beginCell().storeUint(0x4eb1f0f9, 32).storeUint(queryId, 64).storeUint(0, 256).endCell();
}

/** DNSRecord cells (TEP-81). */
export const dnsRecord = {
  wallet: (address: Address) => beginCell().storeUint(0x9fd3, 16).storeAddress(address).storeUint(0, 8).endCell(),
  site: (adnl: Buffer) => beginCell().storeUint(0xad01, 16).storeBuffer(adnl, 32).storeUint(0, 8).endCell(),
  storage: (bag: Buffer) => beginCell().storeUint(0x7473, 16).storeBuffer(bag, 32).endCell(),
  nextResolver: (address: Address) => beginCell().storeUint(0xba93, 16).storeAddress(address).endCell(),
};

/** change_dns_record: a value sets the category's record, none deletes it. */
export function changeDnsRecordBody(category: string, value: Cell | null): Cell {
  const body = beginCell().storeUint(0x4eb1f0f9, 32).storeUint(0, 64).storeBuffer(sha256(category), 32);
  return (value ? body.storeRef(value) : body).endCell();
}

/** A `/localnet/…` control call's result. */
export async function localnetControl(stack: LocalStack, name: string, body?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await fetch(`${stack.url}/localnet/${name}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (res.status !== 200) throw new Error(`/localnet/${name}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { result: Record<string, unknown> }).result;
}

/** Moves the chain clock and seals a block, so that the next transactions and get-methods run then. */
export async function advanceChainClock(stack: LocalStack, seconds: number): Promise<void> {
  await localnetControl(stack, 'time', { increase: seconds });
  await localnetControl(stack, 'mine', {});
}

/**
 * One message from funded v4r2 wallet `from`, valid until a minute past the chain's clock (which
 * may be ahead of the wall clock); returns once it is in a block the API serves.
 */
export async function sendAtChainTime(
  stack: LocalStack,
  client: TonClient,
  from: number,
  to: Address,
  value: bigint,
  body: Cell,
  init?: StateInit,
): Promise<void> {
  const now = (await localnetControl(stack, 'status'))['now'] as number;
  await transferFromWallet(
    client,
    stack.localnet.wallets.keyPair,
    [internal({ to, value, body, init, bounce: !init })],
    V4R2_BASE_SUBWALLET_ID + from,
    now + 60,
  );
  await nextBlock(stack);
}

/**
 * The least price of a name today (dns-utils.fc: from 2022's start prices down 10% a month, to the
 * end prices after 21 months): 100 TON for 4 letters down to 1 TON for 11 and more.
 */
export function leastDomainPrice(name: string): bigint {
  const prices: Record<number, number> = { 4: 100, 5: 50, 6: 40, 7: 30, 8: 20, 9: 10, 10: 5 };
  return toNano(prices[Buffer.byteLength(name)] ?? 1);
}

/**
 * Wallet `from` buys each name from `root` (its least price and 1 TON) and, nobody bidding more,
 * owns them once the clock passed the auctions' end and a `get_static_data` handed each item over.
 */
export async function ownDomains(stack: LocalStack, client: TonClient, root: Address, names: readonly string[], from = 0): Promise<void> {
  for (const name of names) await sendAtChainTime(stack, client, from, root, leastDomainPrice(name) + toNano('1'), buyDomainBody(name));
  await advanceChainClock(stack, 3_700);
  for (const name of names) await sendAtChainTime(stack, client, from, dnsItemAddress(root, name), toNano('0.05'), getStaticDataBody());
}
