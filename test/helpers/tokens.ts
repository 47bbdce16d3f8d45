import { Address, beginCell, Cell, contractAddress, Dictionary, StateInit, toNano } from '@ton/core';
import { internal, TonClient, WalletContractV4 } from '@ton/ton';
import { transferFromWallet } from './walletActions';
import { v3HeadAtLeast, type LocalStack } from './localStack';
import { callV2 } from './v2Calls';
import { until } from './waiting';
import type { KeyPair } from '@ton/crypto';
import { createHash } from 'node:crypto';
import TonWeb from 'tonweb';
import { storeJettonBurn, storeJettonTransfer, storeTextComment } from '../../src/tlb';

/**
 * Jettons and NFTs on the local chain for getTokenData: the standard minter, jetton wallet, NFT
 * collection and item contracts (their code taken from tonweb, which ships it), deployed and
 * minted from a funded wallet through the API with TonClient.
 */

type TonwebCell = { toBoc(hasIdx?: boolean): Promise<Uint8Array> };

async function codeOf(contract: { options: { code?: unknown } }): Promise<Cell> {
  const boc = await (contract.options.code as TonwebCell).toBoc(false);
  return Cell.fromBoc(Buffer.from(boc))[0];
}

export interface TokenCodes {
  jettonMinter: Cell;
  jettonWallet: Cell;
  nftCollection: Cell;
  nftItem: Cell;
}

export async function tokenCodes(): Promise<TokenCodes> {
  const provider = new TonWeb.HttpProvider('http://127.0.0.1:1/unused');
  const token = TonWeb.token as unknown as {
    jetton: {
      JettonMinter: new (p: unknown, o: object) => { options: { code?: unknown } };
      JettonWallet: new (p: unknown, o: object) => { options: { code?: unknown } };
    };
    nft: {
      NftCollection: new (p: unknown, o: object) => { options: { code?: unknown } };
      NftItem: new (p: unknown, o: object) => { options: { code?: unknown } };
    };
  };
  return {
    jettonMinter: await codeOf(new token.jetton.JettonMinter(provider, {})),
    jettonWallet: await codeOf(new token.jetton.JettonWallet(provider, {})),
    nftCollection: await codeOf(new token.nft.NftCollection(provider, { royalty: 0 })),
    nftItem: await codeOf(new token.nft.NftItem(provider, {})),
  };
}

function snake(bytes: Buffer): Cell {
  return beginCell().storeUint(0, 8).storeBuffer(bytes).endCell();
}

/** TEP-64 on-chain content: a dictionary keyed by sha256 of the attribute name. */
export function onchainContent(attributes: Record<string, string | Buffer>): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  for (const [name, value] of Object.entries(attributes)) {
    dict.set(createHash('sha256').update(name).digest(), snake(Buffer.isBuffer(value) ? value : Buffer.from(value, 'utf8')));
  }
  return beginCell().storeUint(0, 8).storeDict(dict).endCell();
}

export function offchainContent(uri: string): Cell {
  return beginCell().storeUint(1, 8).storeBuffer(Buffer.from(uri, 'utf8')).endCell();
}

export interface DeployedTokens {
  owner: Address;
  minter: Address;
  jettonWallet: Address;
  collection: Address;
  item: Address;
  jettonAmount: bigint;
  collectionUri: string;
  itemUri: string;
}

/** Where the NFT collection's content and its items' documents are (example.com unless given). */
export interface CollectionDocuments {
  /** The collection's content cell (default: off-chain at `collectionUri`). */
  readonly collectionContent?: Cell;
  readonly collectionUri?: string;
  /** The common prefix of the items' URIs. */
  readonly itemBase?: string;
}

/** Deploys a jetton minter and an NFT collection owned by `wallet`, then mints one of each to it. */
export async function deployTokens(client: TonClient, keyPair: KeyPair, content: Cell, documents: CollectionDocuments = {}): Promise<DeployedTokens> {
  const codes = await tokenCodes();
  const wallet = client.open(WalletContractV4.create({ workchain: 0, publicKey: keyPair.publicKey }));
  const owner = wallet.address;
  const collectionUri = documents.collectionUri ?? 'https://example.com/collection.json';
  const itemBase = documents.itemBase ?? 'https://example.com/items/';

  const minterInit: StateInit = {
    code: codes.jettonMinter,
    data: beginCell().storeCoins(0).storeAddress(owner).storeRef(content).storeRef(codes.jettonWallet).endCell(),
  };
  const collectionInit: StateInit = {
    code: codes.nftCollection,
    data: beginCell()
      .storeAddress(owner)
      .storeUint(0, 64)
      .storeRef(
        beginCell()
          .storeRef(documents.collectionContent ?? offchainContent(collectionUri))
          .storeRef(beginCell().storeBuffer(Buffer.from(itemBase)).endCell())
          .endCell(),
      )
      .storeRef(codes.nftItem)
      .storeRef(beginCell().storeUint(0, 16).storeUint(1000, 16).storeAddress(owner).endCell())
      .endCell(),
  };
  const minter = contractAddress(0, minterInit);
  const collection = contractAddress(0, collectionInit);

  await transferFromWallet(client, keyPair, [
    internal({ to: minter, value: toNano('1'), init: minterInit, bounce: false }),
    internal({ to: collection, value: toNano('1'), init: collectionInit, bounce: false }),
  ]);

  const jettonAmount = 1_000_000_000n;
  const mintJetton = beginCell()
    .storeUint(21, 32)
    .storeUint(0, 64)
    .storeAddress(owner)
    .storeCoins(toNano('0.2'))
    .storeRef(
      beginCell()
        .storeUint(0x178d4519, 32)
        .storeUint(0, 64)
        .storeCoins(jettonAmount)
        .storeAddress(null)
        .storeAddress(null)
        .storeCoins(0)
        .storeBit(0)
        .endCell(),
    )
    .endCell();
  const itemSuffix = '0.json';
  const mintItem = beginCell()
    .storeUint(1, 32)
    .storeUint(0, 64)
    .storeUint(0, 64)
    .storeCoins(toNano('0.1'))
    .storeRef(
      beginCell()
        .storeAddress(owner)
        .storeRef(beginCell().storeBuffer(Buffer.from(itemSuffix)).endCell())
        .endCell(),
    )
    .endCell();
  await transferFromWallet(client, keyPair, [
    internal({ to: minter, value: toNano('0.5'), body: mintJetton }),
    internal({ to: collection, value: toNano('0.5'), body: mintItem }),
  ]);

  const jettonWallet = (
    await client.runMethod(minter, 'get_wallet_address', [{ type: 'slice', cell: beginCell().storeAddress(owner).endCell() }])
  ).stack.readAddress();
  const item = (await client.runMethod(collection, 'get_nft_address_by_index', [{ type: 'int', value: 0n }])).stack.readAddress();
  return { owner, minter, jettonWallet, collection, item, jettonAmount, collectionUri, itemUri: itemBase + itemSuffix };
}

/**
 * From the owner's jetton wallet: a transfer of 1000 to `recipient` (query id 7, 0.01 TON
 * forwarded with the comment "hello jetton" in a referenced payload), then a burn of 100 (query id 8).
 */
export async function transferAndBurnJetton(client: TonClient, keyPair: KeyPair, tokens: DeployedTokens, recipient: Address): Promise<void> {
  const forwardPayload = beginCell().store(storeTextComment({ text: Buffer.from('hello jetton') })).endCell();
  const transfer = beginCell()
    .store(
      storeJettonTransfer({
        queryId: 7n,
        amount: 1000n,
        destination: recipient,
        responseDestination: tokens.owner,
        customPayload: null,
        forwardTonAmount: toNano('0.01'),
        forwardPayload: { inRef: true, cell: forwardPayload },
      }),
    )
    .endCell();
  await transferFromWallet(client, keyPair, [internal({ to: tokens.jettonWallet, value: toNano('0.2'), body: transfer })]);
  const burn = beginCell().store(storeJettonBurn({ queryId: 8n, amount: 100n, responseDestination: tokens.owner, customPayload: null })).endCell();
  await transferFromWallet(client, keyPair, [internal({ to: tokens.jettonWallet, value: toNano('0.2'), body: burn })]);
}

/**
 * deployTokens on a local stack once its get-methods answer (on a loaded machine the first ones
 * can time out while TVM threads start), with an on-chain "Test jetton" (TJ) content.
 */
export async function deployTokensOn(
  stack: LocalStack,
  client: TonClient,
  content: Cell = onchainContent({ name: 'Test jetton', symbol: 'TJ' }),
  documents: CollectionDocuments = {},
): Promise<DeployedTokens> {
  const { keyPair } = stack.localnet.wallets;
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: keyPair.publicKey });
  await until(
    async () => (await callV2(stack, 'POST', 'runGetMethod', { address: wallet.address.toString(), method: 'seqno', stack: [] })).status === 200,
    120_000,
    'runGetMethod answers',
  );
  return deployTokens(client, keyPair, content, documents);
}

/**
 * Waits until the index committed two masterchain blocks past the chain's head now (all sent so
 * far is in), and v3's cached answers are keyed by that head (published: --v3-head-warm).
 */
export async function indexCaughtUp(stack: LocalStack): Promise<void> {
  const head = (await callV2<{ last: { seqno: number } }>(stack, 'GET', 'getMasterchainInfo', {})).body.result!.last.seqno;
  const index = stack.server.services.index!;
  await until(() => (index.health().status.committedMcSeqno ?? 0) >= head + 2, 120_000, `index reaches ${head + 2}`);
  await v3HeadAtLeast(stack, head + 2);
}
