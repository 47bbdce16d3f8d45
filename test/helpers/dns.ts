import { createHash } from 'node:crypto';
import { Address, beginCell, Cell, contractAddress, Dictionary, type StateInit } from '@ton/core';

/**
 * A TON DNS collection and item for the local chain, written here (FunC, compiled with
 * @ton-community/func-js at test time) to TEP-81's interface and the .ton contracts' layout: the
 * collection deploys items whose index is the SHA-256 of their name and answers the TEP-62
 * collection get-methods; an item keeps its records in its TEP-64 on-chain content dictionary
 * (key: SHA-256 of the category name, value: a referenced DNSRecord), answers `get_nft_data`,
 * `get_domain` (its name) and `dnsresolve` (all records for category 0), and takes
 * `change_dns_record` from its owner (a value sets the record, none deletes it). No auctions or
 * renewals: only what the index reads.
 */

const PRIMITIVES = `
cell get_data() asm "c4 PUSH";
() set_data(cell c) impure asm "c4 POP";
slice begin_parse(cell c) asm "CTOS";
builder begin_cell() asm "NEWC";
cell end_cell(builder b) asm "ENDC";
builder store_ref(builder b, cell c) asm(c b) "STREF";
builder store_slice(builder b, slice s) asm "STSLICER";
builder store_dict(builder b, cell c) asm(c b) "STDICT";
builder store_grams(builder b, int x) asm "STGRAMS";
(slice, cell) load_ref(slice s) asm( -> 1 0) "LDREF";
(slice, cell) load_dict(slice s) asm( -> 1 0) "LDDICT";
(slice, slice) load_msg_addr(slice s) asm( -> 1 0) "LDMSGADDR";
int slice_bits(slice s) asm "SBITS";
int slice_refs(slice s) asm "SREFS";
int cell_hash(cell c) asm "HASHCU";
int string_hash(slice s) asm "SHA256U";
int equal_slices(slice a, slice b) asm "SDEQ";
slice my_address() asm "MYADDR";
() send_raw_message(cell msg, int mode) impure asm "SENDRAWMSG";
forall X -> X null() asm "PUSHNULL";
(cell, int) udict_get_ref?(cell dict, int key_len, int index) asm(index dict key_len) "DICTUGETREF" "NULLSWAPIFNOT";
cell udict_set_ref(cell dict, int key_len, int index, cell value) asm(value index dict key_len) "DICTUSETREF";
(cell, int) udict_delete?(cell dict, int key_len, int index) asm(index dict key_len) "DICTUDEL";
`;

const ITEM = `
${PRIMITIVES}
;; storage: index:uint256 collection:MsgAddress, then once deployed owner:MsgAddress content:^Cell domain:^Cell

() recv_internal(int msg_value, cell in_msg_full, slice in_msg_body) impure {
  slice cs = in_msg_full.begin_parse();
  int flags = cs~load_uint(4);
  if (flags & 1) { return (); }
  slice sender = cs~load_msg_addr();
  slice ds = get_data().begin_parse();
  int index = ds~load_uint(256);
  slice collection = ds~load_msg_addr();
  if (ds.slice_bits() == 0) {
    throw_unless(405, equal_slices(collection, sender));
    slice owner = in_msg_body~load_msg_addr();
    cell content = in_msg_body~load_ref();
    cell domain = in_msg_body~load_ref();
    set_data(begin_cell().store_uint(index, 256).store_slice(collection).store_slice(owner).store_ref(content).store_ref(domain).end_cell());
    return ();
  }
  slice owner = ds~load_msg_addr();
  cell content = ds~load_ref();
  cell domain = ds~load_ref();
  int op = in_msg_body~load_uint(32);
  int query_id = in_msg_body~load_uint(64);
  if (op == 0x4eb1f0f9) {
    throw_unless(401, equal_slices(sender, owner));
    int key = in_msg_body~load_uint(256);
    slice records_slice = content.begin_parse();
    records_slice~load_uint(8);
    cell records = records_slice~load_dict();
    if (in_msg_body.slice_refs() > 0) {
      records = records.udict_set_ref(256, key, in_msg_body~load_ref());
    } else {
      (records, _) = records.udict_delete?(256, key);
    }
    content = begin_cell().store_uint(0, 8).store_dict(records).end_cell();
    set_data(begin_cell().store_uint(index, 256).store_slice(collection).store_slice(owner).store_ref(content).store_ref(domain).end_cell());
    return ();
  }
  throw(0xffff);
}

(int, int, slice, slice, cell) get_nft_data() method_id {
  slice ds = get_data().begin_parse();
  int index = ds~load_uint(256);
  slice collection = ds~load_msg_addr();
  if (ds.slice_bits() == 0) {
    return (0, index, collection, null(), null());
  }
  slice owner = ds~load_msg_addr();
  cell content = ds~load_ref();
  return (-1, index, collection, owner, content);
}

slice get_domain() method_id {
  slice ds = get_data().begin_parse();
  ds~load_uint(256);
  ds~load_msg_addr();
  ds~load_msg_addr();
  ds~load_ref();
  return ds~load_ref().begin_parse();
}

(int, cell) dnsresolve(slice subdomain, int category) method_id {
  slice ds = get_data().begin_parse();
  ds~load_uint(256);
  ds~load_msg_addr();
  ds~load_msg_addr();
  slice content = ds~load_ref().begin_parse();
  content~load_uint(8);
  cell records = content~load_dict();
  if (category == 0) {
    return (8, records);
  }
  (cell value, _) = records.udict_get_ref?(256, category);
  return (8, value);
}
`;

const COLLECTION = `
${PRIMITIVES}
;; storage: content:^Cell item_code:^Cell

cell item_state_init(int index, cell item_code) inline {
  cell data = begin_cell().store_uint(index, 256).store_slice(my_address()).end_cell();
  return begin_cell().store_uint(0, 2).store_dict(item_code).store_dict(data).store_uint(0, 1).end_cell();
}

slice item_address(cell state_init) inline {
  return begin_cell().store_uint(4, 3).store_int(0, 8).store_uint(cell_hash(state_init), 256).end_cell().begin_parse();
}

;; deploy: op 1, query_id, owner:MsgAddress, records content ^Cell, name ^Cell; index = sha256(name)
() recv_internal(int msg_value, cell in_msg_full, slice in_msg_body) impure {
  slice cs = in_msg_full.begin_parse();
  int flags = cs~load_uint(4);
  if (flags & 1) { return (); }
  if (in_msg_body.slice_bits() == 0) { return (); }
  int op = in_msg_body~load_uint(32);
  int query_id = in_msg_body~load_uint(64);
  throw_unless(0xffff, op == 1);
  slice owner = in_msg_body~load_msg_addr();
  cell content = in_msg_body~load_ref();
  cell name = in_msg_body~load_ref();
  slice ds = get_data().begin_parse();
  ds~load_ref();
  cell item_code = ds~load_ref();
  int index = string_hash(name.begin_parse());
  cell state_init = item_state_init(index, item_code);
  cell body = begin_cell().store_slice(owner).store_ref(content).store_ref(name).end_cell();
  cell msg = begin_cell()
    .store_uint(0x18, 6)
    .store_slice(item_address(state_init))
    .store_grams(0)
    .store_uint(4 + 2 + 1, 1 + 4 + 4 + 64 + 32 + 1 + 1 + 1)
    .store_ref(state_init)
    .store_ref(body)
    .end_cell();
  send_raw_message(msg, 64);
}

(int, cell, slice) get_collection_data() method_id {
  slice ds = get_data().begin_parse();
  return (-1, ds~load_ref(), begin_cell().store_uint(0, 2).end_cell().begin_parse());
}

slice get_nft_address_by_index(int index) method_id {
  slice ds = get_data().begin_parse();
  ds~load_ref();
  return item_address(item_state_init(index, ds~load_ref()));
}

cell get_nft_content(int index, cell individual_content) method_id {
  return individual_content;
}
`;

async function compile(name: string, source: string): Promise<Cell> {
  const { compileFunc } = await import('@ton-community/func-js');
  const result = await compileFunc({ targets: [name], sources: { [name]: source } });
  if (result.status !== 'ok') throw new Error(`${name}: ${result.message}`);
  return Cell.fromBase64(result.codeBoc);
}

export interface DnsCodes {
  readonly collection: Cell;
  readonly item: Cell;
}

export async function dnsCodes(): Promise<DnsCodes> {
  return { collection: await compile('dns-collection.fc', COLLECTION), item: await compile('dns-item.fc', ITEM) };
}

export const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest();

/** The collection's state init: its own TEP-64 content and the item code. */
export function dnsCollectionInit(codes: DnsCodes, content: Cell): StateInit {
  return { code: codes.collection, data: beginCell().storeRef(content).storeRef(codes.item).endCell() };
}

export function dnsItemAddress(codes: DnsCodes, collection: Address, name: string): Address {
  const data = beginCell()
    .storeUint(BigInt('0x' + sha256(name).toString('hex')), 256)
    .storeAddress(collection)
    .endCell();
  return contractAddress(0, { code: codes.item, data });
}

/** DNSRecord cells (TEP-81). */
export const dnsRecord = {
  wallet: (address: Address) => beginCell().storeUint(0x9fd3, 16).storeAddress(address).storeUint(0, 8).endCell(),
  site: (adnl: Buffer) => beginCell().storeUint(0xad01, 16).storeBuffer(adnl, 32).storeUint(0, 8).endCell(),
  storage: (bag: Buffer) => beginCell().storeUint(0x7473, 16).storeBuffer(bag, 32).endCell(),
  nextResolver: (address: Address) => beginCell().storeUint(0xba93, 16).storeAddress(address).endCell(),
};

/** An item's content: the record dictionary (category name → DNSRecord) in TEP-64 on-chain form. */
export function dnsContent(records: Record<string, Cell>): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  for (const [category, value] of Object.entries(records)) dict.set(sha256(category), value);
  return beginCell().storeUint(0, 8).storeDict(dict).endCell();
}

/** The collection's deploy message of an item named `name` for `owner`. */
export function dnsDeployBody(owner: Address, name: string, records: Record<string, Cell>): Cell {
  return beginCell()
    .storeUint(1, 32)
    .storeUint(0, 64)
    .storeAddress(owner)
    .storeRef(dnsContent(records))
    .storeRef(beginCell().storeBuffer(Buffer.from(name, 'utf8')).endCell())
    .endCell();
}

/** change_dns_record: a value sets the category's record, none deletes it. */
export function changeDnsRecordBody(category: string, value: Cell | null): Cell {
  const body = beginCell().storeUint(0x4eb1f0f9, 32).storeUint(0, 64).storeBuffer(sha256(category), 32);
  return (value ? body.storeRef(value) : body).endCell();
}
