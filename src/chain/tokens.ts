import { Address, beginCell, Cell, TupleItem } from '@ton/core';
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
} from '../converters';
import { ConflictError } from '../errors';
import { accountAt } from './accounts';
import { contractAt, contractOf, type GetMethodOutcome, type LoadedContract } from './getMethods';
import type { ChainSession, McBlock } from '../proofs';

/**
 * getTokenData as toncenter's C++ server decides it: the standard get-methods are tried in the
 * order jetton master, jetton wallet, NFT collection, NFT item; the first one that exits 0 with a
 * full stack and passes verification wins (a jetton wallet must be the one its master computes
 * for its owner, an item the one its collection computes for its index). Nothing: 409.
 */

/** A contract and the deadline its siblings' get-methods share. */
type TokenContract = LoadedContract & { readonly deadline: number };

function ok(outcome: GetMethodOutcome, entries: number): TupleItem[] | undefined {
  return outcome.exitCode === 0 && outcome.stack.length >= entries ? outcome.stack : undefined;
}

function addressSlice(address: Address): TupleItem {
  return { type: 'slice', cell: beginCell().storeAddress(address).endCell() };
}

/** Another contract at the same masterchain block as the token. */
async function sibling(session: ChainSession, token: TokenContract, address: Address): Promise<LoadedContract> {
  return contractOf(session, await accountAt(session, token.read.block, address), token.deadline);
}

async function jettonWallet(session: ChainSession, token: TokenContract, echoed: string): Promise<TokenDataJson | undefined> {
  const stack = ok(await token.run('get_wallet_data', []), 4);
  const fields = stack && readJettonWalletData(stack);
  if (!fields) return undefined;
  const master = await sibling(session, token, fields.jetton);
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

async function nftItem(session: ChainSession, token: TokenContract, echoed: string): Promise<TokenDataJson | undefined> {
  const stack = ok(await token.run('get_nft_data', []), 5);
  const fields = stack && readNftItemData(stack);
  if (!fields) return undefined;
  let content: TokenContentJson | DnsContentJson | undefined;
  if (fields.collection) {
    const collection = await sibling(session, token, fields.collection);
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

/**
 * The token data of `address` at masterchain block `block`; `echoed` is the address as the answer
 * names it (the caller's form, see echoedAddress).
 */
export async function tokenDataAt(
  session: ChainSession,
  block: McBlock,
  args: { address: Address; echoed: string; deadline: number },
): Promise<TokenDataJson> {
  const { echoed, deadline } = args;
  const token: TokenContract = { ...(await contractAt(session, block, args.address, deadline)), deadline };
  const kinds: (() => Promise<TokenDataJson | undefined>)[] = [
    async () => {
      const stack = ok(await token.run('get_jetton_data', []), 5);
      return stack && toJettonMasterData(echoed, stack);
    },
    () => jettonWallet(session, token, echoed),
    async () => {
      const stack = ok(await token.run('get_collection_data', []), 3);
      return stack && toNftCollectionData(echoed, stack);
    },
    () => nftItem(session, token, echoed),
  ];
  for (const kind of kinds) {
    const found = await kind();
    if (found) return found;
  }
  throw new ConflictError(`Smart contract ${echoed} is not Jetton or NFT`);
}
