import fs from 'node:fs';
import path from 'node:path';
import { Address, beginCell, Cell, contractAddress, type StateInit } from '@ton/core';

/**
 * Mainnet's `.ton` DNS contracts (ton-blockchain/dns-contract, built by
 * test/fixtures/contracts/build.ts into dns.json with the hashes mainnet's code has): the root
 * collection deploys an item on a comment naming the domain (op 0) and opens its auction; the
 * item takes bids (empty bodies, each 5% over the last) until the auction's end, hands itself to
 * the best bidder on the first message with an opcode after it (paying the bid to the root with
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

/** The content mainnet's `.ton` root was deployed with: with it the root's address is mainnet's. */
export const MAINNET_ROOT_CONTENT = beginCell().storeUint(1, 8).storeStringTail('https://dns.ton.org/collection.json').endCell();

/** The `.ton` root's state init (data: content and item code, as nft-collection.fc stores them). */
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

/** The root's deploy request: op 0 and the name as the comment's text (4 to 126 of a-z, 0-9, '-'). */
export function buyDomainBody(name: string): Cell {
  return beginCell().storeUint(0, 32).storeStringTail(name).endCell();
}

/** A message with an opcode and a query id: after the auction's end, the first one hands the item to its winner. */
export function getStaticDataBody(queryId = 0n): Cell {
  return beginCell().storeUint(0x2fcb26a2, 32).storeUint(queryId, 64).endCell();
}

/** `dns_balance_release` (a year without a fill-up lets anyone put the domain back on auction). */
export function releaseBody(queryId = 0n): Cell {
  return beginCell().storeUint(0x4ed14b65, 32).storeUint(queryId, 64).endCell();
}

/** change_dns_record with key 0 and no value: the item's `last_fill_up_time` becomes now (a renewal). */
export function renewBody(queryId = 0n): Cell {
  return beginCell().storeUint(0x4eb1f0f9, 32).storeUint(queryId, 64).storeUint(0, 256).endCell();
}
