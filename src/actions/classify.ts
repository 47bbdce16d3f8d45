import { createHash } from 'node:crypto';
import { Address, Cell, ExternalAddress, loadMessageRelaxed, Slice } from '@ton/core';
import {
  isEmptyPayload,
  loadMultisigApprove,
  loadMultisigApproveRejectedExitCode,
  loadMultisigExecute,
  loadMultisigNewOrder,
  loadMultisigOrderInit,
  loadVestingAddWhitelist,
  loadVestingSendMessage,
  loadDnsChangeRecord,
  loadJettonBurn,
  loadJettonInternalTransfer,
  loadJettonMint,
  loadJettonTransfer,
  loadNftOwnershipAssigned,
  loadNftTransfer,
  loadTextComment,
  OP,
  type MsgAddress,
} from '../tlb';
import { loadSnakeBytes } from '../converters';
import type { ActionDetails, ActionJson, NftItemInfo, TokenDirectory, TraceInput, TraceMessage, TraceTransaction } from './types';
import { V1_ACTION_TYPES } from './versions';

/**
 * toncenter's action classification (indexer/events in toncenter/ton-indexer), for its v1 core
 * types: a trace's transactions become a tree of event nodes (one per transaction, keyed by its
 * inbound message), each node a basic block (ton_transfer, call_contract, tick_tock; a
 * contract_deploy beside it when the transaction activated its account), then matchers, in
 * toncenter's order, merge chains of blocks into typed blocks (jetton_transfer = transfer →
 * internal_transfer → notification, with excesses and bounces; and so on). What no matcher takes
 * stays a generic action. Pure: a trace and a token directory in, actions out.
 */

const ELECTOR = '-1:' + '3'.repeat(64);
const ZERO_KEY = Buffer.alloc(32);
/** toncenter's `.ton` DNS item code hash and root (blocks/auction.py): either one makes an item a DNS item there. */
const DNS_ITEM_CODE_HASH = 'i1/8nr/TkGTY1fVuRlnIJrt1k5I/XKSHKL5NYK9vUfk=';
const DNS_ROOT = '0:B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF';
/** The auction's `fill_up`: a `.ton` item pays its winning bid to the root with it (AuctionFillUp). */
const OP_AUCTION_FILL_UP = 0x370fec51;
/** A `.ton` item (or Fragment auction) returning the previous best bid to its bidder. */
const OP_OUTBID_NOTIFICATION = 0x557cea20;

interface EventNode {
  readonly tx: TraceTransaction;
  /** The inbound message; null for tick-tock. */
  readonly msg: TraceMessage | null;
  readonly parent: EventNode | null;
  readonly children: EventNode[];
}

interface Block {
  type: string;
  nodes: EventNode[];
  next: Block[];
  prev: Block | null;
  /** Merged into a typed block: no longer an action of its own. */
  merged: boolean;
  failed: boolean;
  /** The node whose transaction sent this block's first message (toncenter's initiating node). */
  initiating: EventNode | null;
  /** Accounts this block's transactions activated. */
  deployments: Set<string>;
  /** contract_deploy blocks hanging off this block (unwound into the action list at the end). */
  deploys: Block[];
  /** The blocks a typed block was merged from (toncenter's children_blocks). */
  children: Block[];
  /** Typed fields, filled by a matcher (toncenter's RawAction columns this type uses). */
  fields: ActionFields;
}

interface ActionFields {
  source?: string | null;
  sourceSecondary?: string | null;
  destination?: string | null;
  destinationSecondary?: string | null;
  asset?: string | null;
  assetSecondary?: string | null;
  opcode?: number | null;
  value?: bigint | null;
  amount?: bigint | null;
  details?: ActionDetails;
  /** Accounts the action concerns beyond its addresses (a multisig order's signers). */
  accounts?: readonly string[];
}

function opcodeOf(node: EventNode): number | null {
  return node.msg?.opcode ?? null;
}

function raw(address: MsgAddress): string | null {
  if (address === null || !Address.isAddress(address)) return address instanceof ExternalAddress ? address.toString() : null;
  return `${address.workChain}:${address.hash.toString('hex').toUpperCase()}`;
}

function bodySlice(node: EventNode): Slice | null {
  const body = node.msg?.body;
  return body ? body.beginParse(true) : null;
}

function tryLoad<T>(node: EventNode, load: (s: Slice) => T): T | null {
  const slice = bodySlice(node);
  if (!slice) return null;
  try {
    return load(slice);
  } catch {
    return null;
  }
}

/** Builds the event tree: the root is the transaction whose inbound message no other one sent. */
function toTree(trace: TraceInput): EventNode {
  const byInMsg = new Map<string, TraceTransaction>();
  const sent = new Set<string>();
  for (const tx of trace.transactions) {
    if (tx.inMsg) byInMsg.set(tx.inMsg.hash, tx);
    for (const out of tx.outMsgs) sent.add(out.hash);
  }
  const roots = trace.transactions.filter((tx) => !tx.inMsg || !sent.has(tx.inMsg.hash));
  if (roots.length === 0) throw new Error(`trace ${trace.traceId} has no root transaction`);
  const root = [...roots].sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0))[0]!;
  const build = (tx: TraceTransaction, parent: EventNode | null, depth: number): EventNode => {
    const node: EventNode = { tx, msg: tx.tickTock ? null : tx.inMsg, parent, children: [] };
    if (depth > 10_000) return node;
    for (const out of tx.outMsgs) {
      const child = byInMsg.get(out.hash);
      if (child) node.children.push(build(child, node, depth + 1));
    }
    return node;
  };
  return build(root, null, 0);
}

function newBlock(type: string, nodes: EventNode[]): Block {
  return {
    type,
    nodes,
    next: [],
    prev: null,
    merged: false,
    failed: false,
    initiating: nodes[0]?.parent ?? null,
    deployments: new Set(),
    deploys: [],
    children: [],
    fields: {},
  };
}

function activated(tx: TraceTransaction): boolean {
  return tx.endStatus === 'active' && tx.origStatus !== 'active' && tx.origStatus !== 'frozen';
}

/** toncenter's init_block: the basic block of one node, then its children's. */
function initBlock(node: EventNode): Block {
  const op = opcodeOf(node);
  const msg = node.msg;
  let block: Block;
  if (node.tx.tickTock || !msg) {
    block = newBlock('tick_tock', [node]);
    block.failed = node.tx.aborted;
  } else if ((op === null || op === OP.textComment || op === OP.encryptedComment) && msg.source !== null && msg.destination !== null) {
    block = newBlock('ton_transfer', [node]);
    block.fields = tonTransferFields(node);
    // A failed plain transfer counts as failed only when it bounced back (or could not be kept).
    block.failed = node.tx.aborted && (msg.bounce || node.tx.endStatus !== 'uninit');
  } else {
    block = newBlock('call_contract', [node]);
    block.fields = { opcode: op, source: msg.source, destination: msg.destination, value: msg.value };
    block.failed = node.tx.aborted;
    // An external message or a zero-value call that failed is not a failed action of the sender.
    if (block.failed && !msg.value && op) block.failed = false;
  }
  if (msg && activated(node.tx)) {
    block.deployments.add(node.tx.account);
    const deploy = newBlock('contract_deploy', [node]);
    deploy.fields = { opcode: op, source: msg.source, destination: msg.destination, value: msg.value };
    deploy.failed = node.tx.aborted;
    block.deploys.push(deploy);
  }
  for (const child of node.children) {
    const next = initBlock(child);
    next.prev = block;
    block.next.push(next);
  }
  return block;
}

function tonTransferFields(node: EventNode): ActionFields {
  const msg = node.msg!;
  let comment: string | null = null;
  let encrypted = false;
  const body = msg.body;
  if (body && body.bits.length >= 32) {
    if (msg.opcode === OP.textComment) {
      const text = tryLoad(node, loadTextComment)?.text;
      comment = text ? decodeUtf8(text).replace(/\u0000/g, '') : null;
    } else if (msg.opcode === OP.encryptedComment) {
      encrypted = true;
      const s = body.beginParse(true);
      s.skip(32);
      comment = snakeBytes(s)?.toString('base64') ?? null;
    }
  }
  return {
    source: msg.source,
    destination: msg.destination,
    value: msg.value,
    details: { comment, encrypted },
  };
}

/** UTF-8 with invalid sequences kept visible (Python's errors='backslashreplace' in spirit). */
function decodeUtf8(bytes: Buffer): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

/** A snake string's bytes (the project's one reader, tonlib's CellString::load). */
function snakeBytes(s: Slice): Buffer | null {
  return loadSnakeBytes(s);
}

/** Every block reachable through `next`, breadth first, root first. */
function bfs(root: Block): Block[] {
  const out: Block[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const block = queue.shift()!;
    out.push(block);
    queue.push(...block.next);
  }
  return out;
}

function isCall(block: Block, opcode: number): boolean {
  return block.type === 'call_contract' && !block.merged && opcodeOf(block.nodes[0]!) === opcode;
}

/** Excesses and bounces that follow a block are part of what it did (toncenter's auto-append). */
function autoAppended(block: Block, includeExcess: boolean): Block[] {
  return block.next.filter((b) => (includeExcess && isCall(b, OP.excesses)) || isCall(b, OP.bounce));
}

/**
 * Replaces `head` and the blocks it took with one typed block at head's place: the typed block
 * carries their nodes; what followed them and was not taken follows it.
 */
function merge(typed: Block, head: Block, taken: Block[]): Block {
  const set = new Set([head, ...taken]);
  typed.children = [...set];
  for (const block of set) {
    block.merged = true;
    typed.nodes.push(...block.nodes.filter((n) => !typed.nodes.includes(n)));
    for (const d of block.deployments) typed.deployments.add(d);
    typed.deploys.push(...block.deploys);
  }
  const rest: Block[] = [];
  const queue = [...head.next];
  const visited = new Set<Block>();
  while (queue.length > 0) {
    const block = queue.shift()!;
    if (visited.has(block)) continue;
    visited.add(block);
    if (set.has(block)) queue.push(...block.next);
    else rest.push(block);
  }
  typed.next = rest;
  for (const block of rest) block.prev = typed;
  typed.prev = head.prev;
  typed.initiating = head.initiating;
  if (head.prev) head.prev.next = head.prev.next.map((b) => (b === head ? typed : b)).filter((b) => !set.has(b) || b === typed);
  return typed;
}

type Matcher = (block: Block, directory: TokenDirectory) => Block | null;

const jettonTransfer: Matcher = (block, directory) => {
  if (!isCall(block, OP.jettonTransfer)) return null;
  const head = block.nodes[0]!;
  const transfer = tryLoad(head, loadJettonTransfer);
  if (!transfer) return null;
  const internal = block.next.find((b) => isCall(b, OP.jettonInternalTransfer));
  if (!internal) return null;
  const internalNode = internal.nodes[0]!;
  const internalBody = tryLoad(internalNode, loadJettonInternalTransfer);
  const notify = internal.next.find((b) => isCall(b, OP.jettonTransferNotification));
  const taken = [internal, ...(notify ? [notify] : []), ...autoAppended(internal, true), ...autoAppended(block, true)];
  if (notify) taken.push(...autoAppended(notify, true));
  const receiverWallet = internalNode.msg!.destination;
  const receiverInfo = receiverWallet ? directory.jettonWallet(receiverWallet) : undefined;
  // toncenter needs the receiving wallet known to the index; without detection we take the owner
  // the transfer names and leave the asset unknown (the master is only known from detection).
  let receiver = raw(transfer.destination);
  let broken = false;
  if (receiverInfo && receiverInfo.owner !== receiver) {
    broken = true;
    receiver = receiverInfo.owner;
  }
  const senderWallet = head.msg!.destination;
  const asset = receiverInfo?.jetton ?? (senderWallet ? directory.jettonWallet(senderWallet)?.jetton : null) ?? null;
  const payload = transfer.forwardPayload;
  const forwardPayloadCell = isEmptyPayload(payload) ? null : payload.cell;
  const { comment, encrypted } = payloadComment(forwardPayloadCell);
  const typed = newBlock('jetton_transfer', []);
  typed.fields = {
    source: head.msg!.source,
    sourceSecondary: senderWallet,
    destination: receiver,
    destinationSecondary: receiverWallet,
    asset,
    amount: internalBody?.amount ?? transfer.amount,
    details: {
      query_id: transfer.queryId.toString(),
      response_destination: raw(transfer.responseDestination),
      forward_amount: (internalBody?.forwardTonAmount ?? transfer.forwardTonAmount).toString(),
      custom_payload: transfer.customPayload ? transfer.customPayload.toBoc().toString('base64') : null,
      forward_payload: forwardPayloadCell ? forwardPayloadCell.toBoc().toString('base64') : null,
      comment,
      is_encrypted_comment: encrypted,
    },
  };
  typed.failed = block.failed || internal.failed;
  void broken;
  return merge(typed, block, taken);
};

/** A forward payload that is a comment: its text (or base64 of an encrypted one). */
function payloadComment(cell: Cell | null): { comment: string | null; encrypted: boolean } {
  if (!cell || cell.bits.length < 32) return { comment: null, encrypted: false };
  const s = cell.beginParse(true);
  const op = s.loadUint(32);
  if (op !== OP.textComment && op !== OP.encryptedComment) return { comment: null, encrypted: false };
  const bytes = snakeBytes(s);
  if (!bytes) return { comment: null, encrypted: false };
  if (op === OP.encryptedComment) return { comment: bytes.toString('base64'), encrypted: true };
  return { comment: decodeUtf8(bytes).replace(/\u0000/g, ''), encrypted: false };
}

const jettonBurn: Matcher = (block, directory) => {
  if (!isCall(block, OP.jettonBurn)) return null;
  const head = block.nodes[0]!;
  const burn = tryLoad(head, loadJettonBurn);
  if (!burn) return null;
  const wallet = head.msg!.destination;
  const info = wallet ? directory.jettonWallet(wallet) : undefined;
  const notification = block.next.find((b) => isCall(b, OP.jettonBurnNotification));
  const taken = [...(notification ? [notification, ...autoAppended(notification, true)] : []), ...autoAppended(block, true)];
  const typed = newBlock('jetton_burn', []);
  typed.fields = {
    // The owner: the index's record of the wallet, else the sender of the burn request.
    source: info?.owner ?? head.msg!.source,
    sourceSecondary: wallet,
    asset: info?.jetton ?? notification?.nodes[0]!.msg!.destination ?? null,
    amount: burn.amount,
  };
  typed.failed = block.failed;
  return merge(typed, block, taken);
};

const jettonMint: Matcher = (block, directory) => {
  const minter = isCall(block, OP.jettonMint) || isCall(block, OP.minterMint);
  if (!minter) return null;
  const head = block.nodes[0]!;
  const op = opcodeOf(head)!;
  const mint = tryLoad(head, (s) => loadJettonMint(s, op));
  if (!mint) return null;
  const internal = block.next.find((b) => isCall(b, OP.jettonInternalTransfer));
  const notify = (internal ?? block).next.find((b) => isCall(b, OP.jettonTransferNotification));
  const taken = [...(internal ? [internal, ...autoAppended(internal, true)] : []), ...(notify ? [notify, ...autoAppended(notify, true)] : []), ...autoAppended(block, true)];
  const typed = newBlock('jetton_mint', []);
  const minterAddress = head.msg!.destination;
  if (!block.failed && internal) {
    const internalBody = tryLoad(internal.nodes[0]!, loadJettonInternalTransfer);
    const receiverWallet = internal.nodes[0]!.msg!.destination;
    const info = receiverWallet ? directory.jettonWallet(receiverWallet) : undefined;
    typed.fields = {
      destination: info?.owner ?? raw(mint.toAddress),
      destinationSecondary: receiverWallet,
      asset: info?.jetton ?? minterAddress,
      amount: internalBody?.amount ?? null,
      value: mint.tonAmount,
    };
    typed.failed = block.failed || internal.failed;
  } else {
    typed.fields = { destination: raw(mint.toAddress), destinationSecondary: null, asset: minterAddress, amount: null, value: mint.tonAmount };
    typed.failed = true;
  }
  return merge(typed, block, taken);
};

const nftTransfer: Matcher = (block, directory) => {
  if (!isCall(block, OP.nftTransfer)) return null;
  const head = block.nodes[0]!;
  const transfer = tryLoad(head, loadNftTransfer);
  if (!transfer) return null;
  const item = head.tx.account;
  const info = directory.nftItem(item);
  if (!info) return null; // toncenter: an item the index does not know is not an nft_transfer
  const assigned = block.next.find((b) => isCall(b, OP.nftOwnershipAssigned));
  const excess = block.next.find((b) => isCall(b, OP.excesses));
  const taken = [...(assigned ? [assigned] : []), ...(excess ? [excess] : []), ...autoAppended(block, true)];
  const assignedBody = assigned ? tryLoad(assigned.nodes[0]!, loadNftOwnershipAssigned) : null;
  const payload = isEmptyPayload(transfer.forwardPayload) ? null : transfer.forwardPayload.cell;
  const { comment, encrypted } = payloadComment(payload);
  const typed = newBlock('nft_transfer', []);
  typed.fields = {
    source: assignedBody ? raw(assignedBody.prevOwner) : head.msg!.source,
    destination: raw(transfer.newOwner),
    asset: info.collection,
    assetSecondary: item,
    details: {
      nft_item_index: info.index,
      is_purchase: false,
      query_id: transfer.queryId.toString(),
      response_destination: raw(transfer.responseDestination),
      custom_payload: transfer.customPayload ? transfer.customPayload.toBoc().toString('base64') : null,
      forward_payload: payload ? payload.toBoc().toString('base64') : null,
      forward_amount: transfer.forwardAmount.toString(),
      comment: payload ? comment : null,
      is_encrypted_comment: payload && comment !== null ? encrypted : null,
    },
  };
  typed.failed = block.failed;
  return merge(typed, block, taken);
};

const nftMint: Matcher = (block, directory) => {
  if (block.merged || block.deployments.size !== 1 || block.type === 'contract_deploy') return null;
  const address = [...block.deployments][0]!;
  const info = directory.nftItem(address);
  if (!info) return null;
  const head = block.nodes[0]!;
  const typed = newBlock('nft_mint', []);
  typed.fields = {
    source: head.msg?.source ?? null,
    destination: address,
    assetSecondary: address,
    asset: info.collection,
    opcode: opcodeOf(head),
    details: { nft_item_index: info.index },
  };
  typed.failed = block.failed;
  return merge(typed, block, []);
};

const changeDns: Matcher = (block, directory) => {
  if (!isCall(block, OP.dnsChangeRecord)) return null;
  const head = block.nodes[0]!;
  const change = tryLoad(head, loadDnsChangeRecord);
  if (!change) return null;
  const destination = head.msg!.destination;
  const collection = destination ? (directory.nftItem(destination)?.collection ?? null) : null;
  const bounces = block.next.filter((b) => isCall(b, OP.bounce));
  let typed: Block;
  if (change.value) {
    typed = newBlock('change_dns', []);
    typed.fields = { details: { key: change.key.toString('hex'), value: dnsValue(change.value) } };
  } else if (change.key.equals(ZERO_KEY)) {
    typed = newBlock('renew_dns', []);
  } else {
    typed = newBlock('delete_dns', []);
    typed.fields = { details: { hash: change.key.toString('hex') } };
  }
  typed.fields.source = head.msg!.source;
  typed.fields.destination = destination;
  typed.fields.asset = collection;
  typed.failed = block.failed;
  return merge(typed, block, bounces);
};

function dnsItem(directory: TokenDirectory, address: string | null): NftItemInfo | null {
  const item = address ? directory.nftItem(address) : undefined;
  if (!item || (item.codeHash !== DNS_ITEM_CODE_HASH && item.collection !== DNS_ROOT)) return null;
  return item;
}

/** The query id after the opcode, when the body has 64 more bits (toncenter's optional read). */
function optionalQueryId(node: EventNode): string | null {
  const s = bodySlice(node);
  if (!s || s.remainingBits < 96) return null;
  s.skip(32);
  return s.loadUintBig(64).toString();
}

/**
 * dns_purchase (v3, DnsPurchaseMatcher): a `.ton` item's `fill_up` to its root, sent by a call to
 * the item (the first message with an opcode after the auction's end hands the item to the best
 * bidder, who sent that call). Only the fill-up is merged: the call stays its own action.
 */
const dnsPurchase: Matcher = (block, directory) => {
  if (!isCall(block, OP_AUCTION_FILL_UP)) return null;
  const parent = block.prev;
  if (!parent || parent.type !== 'call_contract' || parent.merged) return null;
  const head = block.nodes[0]!;
  const itemAddress = head.msg!.source;
  const item = dnsItem(directory, itemAddress);
  if (!item) return null;
  const typed = newBlock('dns_purchase', []);
  typed.fields = {
    destination: parent.nodes[0]!.msg?.source ?? null,
    asset: item.collection,
    assetSecondary: itemAddress,
    details: { nft_item_index: item.index, query_id: optionalQueryId(head), price: str(head.msg!.value) },
  };
  typed.failed = head.tx.aborted;
  return merge(typed, block, []);
};

/** dns_release (v3, DnsReleaseMatcher): `dns_balance_release` to a `.ton` item (after a year without renewal, anyone may). */
const dnsRelease: Matcher = (block, directory) => {
  if (!isCall(block, OP.dnsBalanceRelease)) return null;
  const head = block.nodes[0]!;
  const itemAddress = head.msg!.destination;
  const item = dnsItem(directory, itemAddress);
  if (!item) return null;
  const typed = newBlock('dns_release', []);
  typed.fields = {
    source: head.msg!.source,
    destination: itemAddress,
    asset: item.collection,
    value: head.msg!.value,
    details: { nft_item_index: item.index, query_id: optionalQueryId(head) },
  };
  typed.failed = head.tx.aborted;
  return merge(typed, block, []);
};

/**
 * auction_bid (v1, AuctionBidMatcher) on a `.ton` item: a plain transfer to the item that makes it
 * return the previous best bid (an outbid notification follows; without one, as the first bid of
 * a domain or a fill-up by its owner, it is no bid there). toncenter's Getgems and Fragment
 * auctions are not classified here.
 */
const auctionBid: Matcher = (block, directory) => {
  if (block.type !== 'ton_transfer' || block.merged || block.deployments.size > 0) return null;
  const comment = block.fields.details?.['comment'];
  if (comment === 'cancel' || comment === 'finish' || comment === 'stop') return null;
  const head = block.nodes[0]!;
  const itemAddress = head.msg!.destination;
  const item = dnsItem(directory, itemAddress);
  if (!item || !block.next.some((b) => isCall(b, OP_OUTBID_NOTIFICATION))) return null;
  const typed = newBlock('auction_bid', []);
  typed.fields = {
    source: head.msg!.source,
    destination: itemAddress,
    asset: item.collection,
    assetSecondary: itemAddress,
    value: head.msg!.value,
    details: { nft_item_index: item.index },
  };
  typed.failed = block.failed;
  return merge(typed, block, []);
};

/** auction_outbid (v3, AuctionOutbidMatcher, Fragment kind): the one outbid notification the auction sends after a bid. */
const auctionOutbid: Matcher = (block) => {
  if (block.type !== 'auction_bid' || block.merged) return null;
  const auction = block.fields.destination ?? null;
  const outbids = block.next.filter((b) => isCall(b, OP_OUTBID_NOTIFICATION) && b.nodes[0]!.msg!.source === auction);
  if (outbids.length !== 1) return null;
  const outbid = outbids[0]!;
  const msg = outbid.nodes[0]!.msg!;
  const typed = newBlock('auction_outbid', []);
  typed.fields = {
    source: auction,
    destination: msg.destination,
    sourceSecondary: block.fields.source ?? null,
    asset: block.fields.asset ?? null,
    assetSecondary: block.fields.assetSecondary ?? null,
    amount: msg.value,
  };
  typed.failed = outbid.failed;
  return merge(typed, outbid, []);
};

/** A DNSRecord as ton-index-go's ActionDetailsChangeDnsValue. */
function dnsValue(cell: Cell): ActionDetails {
  const out: ActionDetails = {
    sum_type: null,
    dns_smc_address: null,
    dns_adnl_address: null,
    dns_text: null,
    dns_next_resolver_address: null,
    dns_storage_address: null,
    flags: null,
  };
  try {
    const s = cell.beginParse(true);
    const tag = s.loadUint(16);
    if (tag === 0x9fd3) {
      out['sum_type'] = 'DNSSmcAddress';
      out['dns_smc_address'] = raw(s.loadAddressAny());
      out['flags'] = s.loadUint(8);
    } else if (tag === 0xba93) {
      out['sum_type'] = 'DNSNextResolver';
      out['dns_next_resolver_address'] = raw(s.loadAddressAny());
    } else if (tag === 0xad01) {
      out['sum_type'] = 'DNSAdnlAddress';
      out['dns_adnl_address'] = s.loadBuffer(32).toString('hex');
      out['flags'] = s.loadUint(8);
    } else if (tag === 0x7473) {
      out['sum_type'] = 'DNSStorageAddress';
      out['dns_storage_address'] = s.loadBuffer(32).toString('hex');
    } else if (tag === 0x1eda) {
      out['sum_type'] = 'DNSText';
      // ton-index-go puts a text record's value in dns_storage_address (its switch, sic).
      const bytes = snakeBytes(s);
      out['dns_storage_address'] = bytes ? decodeUtf8(bytes) : null;
    }
  } catch {
    // An unreadable record: the action keeps its key with an empty value.
  }
  return out;
}

function electionMatcher(type: string, requestOp: number, confirmationOp: number): Matcher {
  return (block) => {
    if (!isCall(block, requestOp) || block.nodes[0]!.msg!.destination !== ELECTOR) return null;
    const head = block.nodes[0]!;
    const confirmation = block.next.find((b) => isCall(b, confirmationOp));
    const typed = newBlock(type, []);
    const amount = type === 'election_deposit' ? head.msg!.value : (confirmation?.nodes[0]!.msg!.value ?? null);
    typed.fields = { source: head.msg!.source, amount };
    typed.failed = !confirmation;
    return merge(typed, block, confirmation ? [confirmation] : []);
  };
}

const boc = (cell: Cell): string => cell.toBoc().toString('base64');

/**
 * multisig_create_order (toncenter's MultisigCreateOrderBlockMatcher): a signer's or proposer's
 * `new_order` to the multisig and the multisig's `init` deploying the order. Only an order the
 * index detected counts (toncenter reads it from its interfaces; its signers join the accounts).
 */
const multisigCreateOrder: Matcher = (block, directory) => {
  if (!isCall(block, OP.multisigNewOrder)) return null;
  const head = block.nodes[0]!;
  const request = tryLoad(head, loadMultisigNewOrder);
  const init = block.next.find((b) => isCall(b, OP.multisigOrderInit));
  if (!request || !init) return null;
  const initNode = init.nodes[0]!;
  const deploy = tryLoad(initNode, loadMultisigOrderInit);
  const orderAddress = initNode.msg!.destination;
  const order = orderAddress ? directory.multisigOrder?.(orderAddress) : undefined;
  if (!deploy || !order) return null;
  const typed = newBlock('multisig_create_order', []);
  typed.fields = {
    source: head.msg!.source,
    destination: head.msg!.destination,
    destinationSecondary: orderAddress,
    accounts: order.signers,
    details: {
      query_id: request.queryId.toString(),
      order_seqno: request.orderSeqno.toString(),
      is_created_by_signer: request.signer,
      is_signed_by_creator: deploy.approveOnInit,
      creator_index: request.index,
      expiration_date: request.expirationDate,
      order_boc: boc(deploy.order),
    },
  };
  typed.failed = block.failed;
  return merge(typed, block, [init]);
};

/**
 * multisig_approve: a signer's `approve` (or the comment "approve") to an order, with the order's
 * `approve_accepted` or `approve_rejected` answer (one of them is required).
 */
const multisigApprove: Matcher = (block, directory) => {
  const head = block.nodes[0];
  if (!head || block.merged) return null;
  const byOpcode = isCall(block, OP.multisigApprove);
  const byComment = block.type === 'ton_transfer' && block.fields.details?.['comment'] === 'approve';
  if (!byOpcode && !byComment) return null;
  const accepted = block.next.find((b) => isCall(b, OP.multisigApproveAccepted));
  const rejected = accepted ? undefined : block.next.find((b) => isCall(b, OP.multisigApproveRejected));
  const answer = accepted ?? rejected;
  const orderAddress = head.msg!.destination;
  const order = orderAddress ? directory.multisigOrder?.(orderAddress) : undefined;
  if (!answer || !order) return null;
  const exitCode = rejected ? (tryLoad(rejected.nodes[0]!, loadMultisigApproveRejectedExitCode) ?? 0) : 0;
  // By comment the signer's index is unknown: -1, as toncenter.
  const signerIndex = byOpcode ? (tryLoad(head, loadMultisigApprove)?.signerIndex ?? -1) : -1;
  const typed = newBlock('multisig_approve', []);
  typed.fields = { source: head.msg!.source, destination: orderAddress, accounts: order.signers, details: { signer_index: signerIndex, exit_code: exitCode } };
  typed.failed = !accepted;
  return merge(typed, block, [answer]);
};

/** multisig_execute: a detected order's `execute` to its multisig (the messages it sends stay actions of their own). */
const multisigExecute: Matcher = (block, directory) => {
  if (!isCall(block, OP.multisigExecute)) return null;
  const head = block.nodes[0]!;
  const execute = tryLoad(head, loadMultisigExecute);
  const orderAddress = head.msg!.source;
  const order = orderAddress ? directory.multisigOrder?.(orderAddress) : undefined;
  if (!execute || !order) return null;
  const typed = newBlock('multisig_execute', []);
  typed.fields = {
    source: orderAddress,
    destination: head.msg!.destination,
    accounts: order.signers,
    details: {
      query_id: execute.queryId.toString(),
      order_seqno: execute.orderSeqno.toString(),
      expiration_date: execute.expirationDate,
      approvals_num: execute.approvalsNum,
      signers_hash: execute.signersHash.toString('base64'),
      order_boc: boc(execute.order),
    },
  };
  typed.failed = block.failed;
  return merge(typed, block, []);
};

/** A vesting request with the vesting's response (toncenter's matchers require it). */
function vestingResponse(block: Block, responseOp: number): Block | undefined {
  return block.next.find((b) => isCall(b, responseOp));
}

/** vesting_send_message: the owner's `send` to its vesting contract, answered by `send_response`. */
const vestingSendMessage: Matcher = (block) => {
  if (!isCall(block, OP.vestingSendMessage)) return null;
  const head = block.nodes[0]!;
  const request = tryLoad(head, loadVestingSendMessage);
  const response = vestingResponse(block, OP.vestingSendMessageResponse);
  if (!request || !response) return null;
  let destination: string | null = null;
  let amount: bigint | null = null;
  try {
    const message = loadMessageRelaxed(request.message.beginParse(true));
    destination = raw(message.info.dest ?? null);
    amount = message.info.type === 'internal' ? message.info.value.coins : null;
  } catch {
    return null; // toncenter's parser raises on a message it cannot read: no action
  }
  const typed = newBlock('vesting_send_message', []);
  typed.fields = {
    source: head.msg!.source,
    destination: head.msg!.destination,
    destinationSecondary: destination,
    amount,
    details: { query_id: request.queryId.toString(), message_boc: boc(request.message) },
  };
  typed.failed = block.failed;
  return merge(typed, block, [response]);
};

/** vesting_add_whitelist: the vesting sender's `add_whitelist`, answered by `add_whitelist_response`. */
const vestingAddWhitelist: Matcher = (block) => {
  if (!isCall(block, OP.vestingAddWhitelist)) return null;
  const head = block.nodes[0]!;
  const request = tryLoad(head, loadVestingAddWhitelist);
  const response = vestingResponse(block, OP.vestingAddWhitelistResponse);
  if (!request || !response) return null;
  const typed = newBlock('vesting_add_whitelist', []);
  typed.fields = {
    source: head.msg!.source,
    destination: head.msg!.destination,
    details: { query_id: request.queryId.toString(), accounts_added: request.addresses.map((a) => raw(a)) },
  };
  typed.failed = block.failed;
  return merge(typed, block, [response]);
};

/** Matchers in toncenter's order (the subset we classify). */
const MATCHERS: readonly Matcher[] = [
  nftMint,
  jettonTransfer,
  jettonBurn,
  dnsRelease,
  dnsPurchase,
  nftTransfer,
  changeDns,
  electionMatcher('election_deposit', OP.electorNewStake, OP.electorNewStakeConfirmation),
  electionMatcher('election_recover', OP.electorRecoverStakeRequest, OP.electorRecoverStakeResponse),
  auctionBid,
  auctionOutbid,
  jettonMint,
  multisigCreateOrder,
  multisigApprove,
  multisigExecute,
  vestingSendMessage,
  vestingAddWhitelist,
];

/** toncenter's action id: base64 SHA-256 of the first node's message hash (or tx hash) and the type. */
export function actionId(keyHash: string, type: string): string {
  return createHash('sha256').update(keyHash + type, 'utf8').digest('base64');
}

function toAction(block: Block, trace: TraceInput, traceEnd: { lt: bigint; utime: number; mcSeqno: number }): ActionJson {
  const nodes = block.nodes;
  const first = nodes.reduce((a, b) => (b.tx.lt < a.tx.lt ? b : a));
  const key = first.msg ? first.msg.hash : first.tx.hash;
  const lts = nodes.map((n) => n.tx.lt);
  const times = nodes.map((n) => n.tx.now);
  const txHashes = new Set(nodes.map((n) => n.tx.hash));
  const f = block.fields;
  const accounts = new Set<string>();
  for (const n of nodes) accounts.add(n.tx.account);
  for (const a of [f.source, f.sourceSecondary, f.destination, f.destinationSecondary, ...(f.accounts ?? [])]) if (a) accounts.add(a);
  if (block.initiating) {
    txHashes.add(block.initiating.tx.hash);
    accounts.add(block.initiating.tx.account);
  }
  const action: ActionJson = {
    trace_id: trace.traceId,
    action_id: actionId(key, block.type),
    start_lt: lts.reduce((a, b) => (b < a ? b : a)).toString(),
    end_lt: lts.reduce((a, b) => (b > a ? b : a)).toString(),
    start_utime: Math.min(...times),
    end_utime: Math.max(...times),
    trace_end_lt: traceEnd.lt.toString(),
    trace_end_utime: traceEnd.utime,
    trace_mc_seqno_end: traceEnd.mcSeqno,
    transactions: [...txHashes],
    success: !block.failed,
    type: block.type,
    details: detailsOf(block),
    accounts: [...accounts].sort(),
    finality: 'finalized',
  };
  if (trace.externalHash) action.trace_external_hash = trace.externalHash;
  return action;
}

function str(value: bigint | null | undefined): string | null {
  return value === null || value === undefined ? null : value.toString();
}

function opcodeHex(opcode: number | null | undefined): string | null {
  return opcode === null || opcode === undefined ? null : `0x${(opcode >>> 0).toString(16).padStart(8, '0')}`;
}

/** Drops the keys Go omits when empty (`omitempty`). */
function omitEmpty(details: ActionDetails, keys: readonly string[]): ActionDetails {
  for (const key of keys) if (details[key] === null || details[key] === undefined) delete details[key];
  return details;
}

/** Details shaped as ton-index-go's ParseRawAction builds them, per type. */
function detailsOf(block: Block): ActionDetails {
  const f = block.fields;
  const d = f.details ?? {};
  switch (block.type) {
    case 'call_contract':
      return omitEmpty({ opcode: opcodeHex(f.opcode), source: f.source ?? null, destination: f.destination ?? null, value: str(f.value), extra_currencies: {} }, ['opcode', 'source', 'destination', 'value']);
    case 'contract_deploy':
      return omitEmpty({ opcode: opcodeHex(f.opcode), source: f.source ?? null, destination: f.destination ?? null, value: str(f.value) }, ['opcode', 'source', 'destination', 'value']);
    case 'ton_transfer':
      return { source: f.source ?? null, destination: f.destination ?? null, value: str(f.value), value_extra_currencies: {}, comment: d['comment'] ?? null, encrypted: d['encrypted'] ?? false };
    case 'tick_tock':
      return {};
    case 'jetton_transfer':
      return {
        asset: f.asset ?? null,
        sender: f.source ?? null,
        receiver: f.destination ?? null,
        sender_jetton_wallet: f.sourceSecondary ?? null,
        receiver_jetton_wallet: f.destinationSecondary ?? null,
        amount: str(f.amount),
        comment: d['comment'] ?? null,
        is_encrypted_comment: d['is_encrypted_comment'] ?? false,
        query_id: d['query_id'] ?? null,
        response_destination: d['response_destination'] ?? null,
        custom_payload: d['custom_payload'] ?? null,
        forward_payload: d['forward_payload'] ?? null,
        forward_amount: d['forward_amount'] ?? null,
      };
    case 'jetton_burn':
      return { owner: f.source ?? null, owner_jetton_wallet: f.sourceSecondary ?? null, asset: f.asset ?? null, amount: str(f.amount) };
    case 'jetton_mint':
      return { asset: f.asset ?? null, receiver: f.destination ?? null, receiver_jetton_wallet: f.destinationSecondary ?? null, amount: str(f.amount), ton_amount: str(f.value) };
    case 'auction_bid':
      return {
        amount: str(f.value),
        bidder: f.source ?? null,
        auction: f.destination ?? null,
        nft_item: f.assetSecondary ?? null,
        nft_collection: f.asset ?? null,
        nft_item_index: d['nft_item_index'] ?? null,
      };
    case 'auction_outbid':
      // comment and marketplace are omitempty there: a `.ton` outbid has no comment, and the
      // marketplace name comes from a table of marketplaces we do not keep.
      return {
        auction_address: f.source ?? null,
        bidder: f.destination ?? null,
        new_bidder: f.sourceSecondary ?? null,
        nft_item: f.assetSecondary ?? null,
        nft_collection: f.asset ?? null,
        amount: str(f.amount),
      };
    case 'dns_purchase':
      // ton-index-go's ActionDetailsDnsPurchase: price and payout_amount are both the fill-up's value there.
      return {
        nft_collection: f.asset ?? null,
        nft_item: f.assetSecondary ?? null,
        nft_item_index: d['nft_item_index'] ?? null,
        new_owner: f.destination ?? null,
        price: d['price'] ?? null,
        query_id: d['query_id'] ?? null,
        payout_amount: d['price'] ?? null,
      };
    case 'dns_release':
      return {
        query_id: d['query_id'] ?? null,
        source: f.source ?? null,
        nft_item: f.destination ?? null,
        nft_collection: f.asset ?? null,
        nft_item_index: d['nft_item_index'] ?? null,
        value: str(f.value),
      };
    case 'nft_mint':
      return omitEmpty({ owner: f.source ?? null, nft_item: f.assetSecondary ?? null, nft_collection: f.asset ?? null, nft_item_index: d['nft_item_index'] ?? null }, ['owner']);
    case 'nft_transfer':
      return omitEmpty(
        {
          nft_collection: f.asset ?? null,
          nft_item: f.assetSecondary ?? null,
          nft_item_index: d['nft_item_index'] ?? null,
          old_owner: f.source ?? null,
          new_owner: f.destination ?? null,
          is_purchase: false,
          price: null,
          query_id: d['query_id'] ?? null,
          response_destination: d['response_destination'] ?? null,
          custom_payload: d['custom_payload'] ?? null,
          forward_payload: d['forward_payload'] ?? null,
          forward_amount: d['forward_amount'] ?? null,
          comment: d['comment'] ?? null,
          is_encrypted_comment: d['is_encrypted_comment'] ?? null,
          marketplace: null,
          real_old_owner: null,
          marketplace_address: null,
          payout_amount: null,
          payout_address: null,
          payout_comment: null,
          payout_comment_encrypted: null,
          payout_comment_encoded: null,
          royalty_amount: null,
          royalty_address: null,
        },
        ['old_owner', 'price'],
      );
    case 'change_dns':
      return { key: d['key'] ?? null, value: d['value'] ?? null, source: f.source ?? null, asset: f.destination ?? null, nft_collection: f.asset ?? null };
    case 'delete_dns':
      return { hash: d['hash'] ?? null, source: f.source ?? null, asset: f.destination ?? null, nft_collection: f.asset ?? null };
    case 'renew_dns':
      return { source: f.source ?? null, asset: f.destination ?? null, nft_collection: f.asset ?? null };
    case 'election_deposit':
    case 'election_recover':
      return omitEmpty({ stake_holder: f.source ?? null, amount: str(f.amount) }, ['amount']);
    case 'multisig_create_order':
      return { ...d, source: f.source ?? null, destination: f.destination ?? null, destination_order: f.destinationSecondary ?? null };
    case 'multisig_approve':
      return { signer_index: d['signer_index'] ?? null, exit_code: d['exit_code'] ?? null, source: f.source ?? null, destination: f.destination ?? null };
    case 'multisig_execute':
      return { ...d, source: f.source ?? null, destination: f.destination ?? null };
    case 'vesting_send_message':
      return { query_id: d['query_id'] ?? null, message_boc: d['message_boc'] ?? null, source: f.source ?? null, vesting: f.destination ?? null, destination: f.destinationSecondary ?? null, amount: str(f.amount) };
    case 'vesting_add_whitelist':
      return { query_id: d['query_id'] ?? null, accounts_added: d['accounts_added'] ?? [], source: f.source ?? null, vesting: f.destination ?? null };
    default:
      return d;
  }
}

/** toncenter's unknown action: the whole trace as one, when nothing can be said about it. */
function unknownAction(trace: TraceInput, traceEnd: { lt: bigint; utime: number; mcSeqno: number }): ActionJson {
  const txs = trace.transactions;
  const action: ActionJson = {
    trace_id: trace.traceId,
    action_id: trace.traceId,
    start_lt: txs.reduce((a, b) => (b.lt < a.lt ? b : a)).lt.toString(),
    end_lt: traceEnd.lt.toString(),
    start_utime: Math.min(...txs.map((t) => t.now)),
    end_utime: traceEnd.utime,
    trace_end_lt: traceEnd.lt.toString(),
    trace_end_utime: traceEnd.utime,
    trace_mc_seqno_end: traceEnd.mcSeqno,
    transactions: txs.map((t) => t.hash),
    success: !txs.some((t) => t.aborted),
    type: 'unknown',
    details: {},
    accounts: [...new Set(txs.map((t) => t.account))].sort(),
    finality: 'finalized',
  };
  if (trace.externalHash) action.trace_external_hash = trace.externalHash;
  return action;
}

/**
 * Classifies one complete trace. Actions come in toncenter's order (breadth first from the root),
 * contract deployments after them; a trace whose root is a lone external message with no effect
 * answers the `unknown` action.
 */
export function classifyTrace(trace: TraceInput, directory: TokenDirectory): ActionJson[] {
  if (trace.transactions.length === 0) return [];
  const tree = toTree(trace);
  const traceEnd = {
    lt: trace.transactions.reduce((a, b) => (b.lt > a.lt ? b : a)).lt,
    utime: Math.max(...trace.transactions.map((t) => t.now)),
    mcSeqno: Math.max(...trace.transactions.map((t) => t.mcSeqno)),
  };
  if (tree.children.length === 0 && tree.msg && tree.msg.source === null) return [unknownAction(trace, traceEnd)];
  const root = newBlock('root', []);
  const first = initBlock(tree);
  first.prev = root;
  root.next = [first];
  for (const matcher of MATCHERS) {
    for (const block of bfs(root)) {
      if (block === root || block.merged) continue;
      matcher(block, directory);
    }
  }
  const blocks = bfs(root).filter((b) => b !== root && !b.merged);
  // unwind_deployments: contract_deploy blocks of every block (typed ones carry those they took).
  const deploys: Block[] = [];
  const seen = new Set<Block>();
  for (const block of blocks) {
    for (const deploy of block.deploys) {
      if (!seen.has(deploy)) {
        seen.add(deploy);
        deploys.push(deploy);
      }
    }
  }
  const actions: ActionJson[] = [];
  // Calls from outside (external messages) and to nowhere (logs) are not actions.
  const listed = (block: Block) => {
    const msg = block.nodes[0]?.msg;
    return block.type !== 'call_contract' || (!!msg && msg.source !== null && msg.destination !== null);
  };
  for (const block of [...blocks, ...deploys]) {
    if (!listed(block)) continue;
    const action = toAction(block, trace, traceEnd);
    actions.push(action);
    // serialize_blocks: a type newer than v1 lists its steps too, marked with it as ancestor.
    if (V1_ACTION_TYPES.has(block.type)) continue;
    for (const child of block.children) {
      if (child.type === 'contract_deploy' || !listed(child)) continue;
      const step = toAction(child, trace, traceEnd);
      if (step.action_id === action.action_id || actions.some((a) => a.action_id === step.action_id)) continue;
      actions.push({ ...step, ancestor_type: [block.type] });
    }
  }
  return actions.length > 0 ? actions : [unknownAction(trace, traceEnd)];
}

/**
 * The actions a client sees: those of a type it accepts and that are not a step of an action it
 * accepts (ton-index-go's `type = ANY(types) AND NOT(ancestor_type && types)`).
 */
export function selectActions(actions: readonly ActionJson[], accepted: ReadonlySet<string>): ActionJson[] {
  return actions.filter((a) => accepted.has(a.type) && !(a.ancestor_type ?? []).some((t) => accepted.has(t)));
}
