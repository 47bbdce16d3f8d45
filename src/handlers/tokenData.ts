import { Address, beginCell, Cell, TupleItem } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { friendlyAddress, rawAddressUpper } from '../converters';
import {
  DnsContentJson,
  parseDnsRecords,
  parseTokenContent,
  readJettonWalletData,
  readNftItemData,
  stackAddress,
  stackCell,
  stackInt,
  toJettonMasterData,
  toJettonWalletData,
  toNftCollectionData,
  toNftItemData,
  TokenContentJson,
  TokenDataJson,
} from '../converters/tokenData';
import { ConflictError } from '../errors';
import type { ParsedAddress } from '../params/address';
import { readAccountAtBlock } from './accountState';
import { contractOf, GetMethodOutcome, LoadedContract, loadContract } from './getMethod';

/**
 * getTokenData as toncenter's C++ server decides it: the standard get-methods are tried in the
 * order jetton master, jetton wallet, NFT collection, NFT item; the first one that exits 0 with a
 * full stack and passes verification wins (a jetton wallet must be the one its master computes
 * for its owner, an item the one its collection computes for its index). Nothing: 409.
 */

/** The address as toncenter echoes it: raw upper-case, or the URL-safe form with the caller's flags. */
export function echoedAddress(parsed: ParsedAddress): string {
  if (parsed.form === 'raw_form') return rawAddressUpper(parsed.address);
  return friendlyAddress(parsed.address, { bounceable: parsed.bounceable, testOnly: parsed.testOnly });
}

/** A contract and the deadline its siblings' get-methods share. */
type TokenContract = LoadedContract & { readonly deadline?: number };

function ok(outcome: GetMethodOutcome, entries: number): TupleItem[] | undefined {
  return outcome.exitCode === 0 && outcome.stack.length >= entries ? outcome.stack : undefined;
}

function addressSlice(address: Address): TupleItem {
  return { type: 'slice', cell: beginCell().storeAddress(address).endCell() };
}

/** Another contract at the same masterchain block as the token. */
async function sibling(client: LiteClient, token: TokenContract, address: Address): Promise<LoadedContract> {
  return contractOf(client, await readAccountAtBlock(client, address, token.read.block), token.deadline);
}

async function jettonWallet(client: LiteClient, token: TokenContract, echoed: string): Promise<TokenDataJson | undefined> {
  const stack = ok(await token.run('get_wallet_data', []), 4);
  const fields = stack && readJettonWalletData(stack);
  if (!fields) return undefined;
  const master = await sibling(client, token, fields.jetton);
  const computed = ok(await master.run('get_wallet_address', [addressSlice(fields.owner)]), 1);
  const expected = computed && stackAddress(computed[computed.length - 1]);
  if (!expected || !expected.equals(token.read.address)) return undefined;
  // Mintless jettons say whether the airdrop was claimed.
  const claimed = await token.run('is_claimed', []);
  const claimedFlag = claimed.exitCode === 0 && claimed.stack.length === 1 ? stackInt(claimed.stack[0]) : undefined;
  return toJettonWalletData(echoed, fields, claimedFlag === undefined ? undefined : claimedFlag !== 0n);
}

/** A TON DNS item: its records (`dnsresolve("\0", 0)`) and its domain (`get_domain`). */
async function dnsContent(token: TokenContract): Promise<DnsContentJson | undefined> {
  const resolved = await token.run('dnsresolve', [
    { type: 'slice', cell: beginCell().storeUint(0, 8).endCell() },
    { type: 'int', value: 0n },
  ]);
  if (resolved.exitCode !== 0 || resolved.stack.length !== 2) return undefined;
  const domain = ok(await token.run('get_domain', []), 1);
  const domainCell = domain && stackCell(domain[domain.length - 1]);
  const records = resolved.stack[1];
  return {
    domain: domainCell
      ? `${domainCell
          .beginParse()
          .loadBuffer(domainCell.bits.length >> 3)
          .toString('utf8')}.ton`
      : '',
    data: parseDnsRecords(records.type === 'cell' || records.type === 'slice' ? records.cell : null),
  };
}

async function nftItem(client: LiteClient, token: TokenContract, echoed: string): Promise<TokenDataJson | undefined> {
  const stack = ok(await token.run('get_nft_data', []), 5);
  const fields = stack && readNftItemData(stack);
  if (!fields) return undefined;
  let content: TokenContentJson | DnsContentJson | undefined;
  if (fields.collection) {
    const collection = await sibling(client, token, fields.collection);
    const computed = ok(await collection.run('get_nft_address_by_index', [{ type: 'int', value: fields.index }]), 1);
    const expected = computed && stackAddress(computed[computed.length - 1]);
    if (!expected || !expected.equals(token.read.address)) return undefined;
    content = await dnsContent(token);
    if (!content) {
      const individual: TupleItem = { type: 'cell', cell: fields.individualContent };
      const full = ok(await collection.run('get_nft_content', [{ type: 'int', value: fields.index }, individual]), 1);
      content = parseTokenContent(stackCell(full?.[full.length - 1]) ?? Cell.EMPTY);
    }
  }
  return toNftItemData(echoed, fields, content ?? (await dnsContent(token)) ?? parseTokenContent(fields.individualContent));
}

export async function readTokenData(client: LiteClient, parsed: ParsedAddress, seqno?: number, deadline?: number): Promise<TokenDataJson> {
  const echoed = echoedAddress(parsed);
  const token: TokenContract = { ...(await loadContract(client, parsed.address, seqno, deadline)), deadline };
  const kinds: (() => Promise<TokenDataJson | undefined>)[] = [
    async () => {
      const stack = ok(await token.run('get_jetton_data', []), 5);
      return stack && toJettonMasterData(echoed, stack);
    },
    () => jettonWallet(client, token, echoed),
    async () => {
      const stack = ok(await token.run('get_collection_data', []), 3);
      return stack && toNftCollectionData(echoed, stack);
    },
    () => nftItem(client, token, echoed),
  ];
  for (const kind of kinds) {
    const found = await kind();
    if (found) return found;
  }
  throw new ConflictError(`Smart contract ${echoed} is not Jetton or NFT`);
}
