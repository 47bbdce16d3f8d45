import { walletKindByCodeHash } from '../../converters';
import { toFriendly } from '../../params';

/**
 * ton-index-go's encodings: hashes base64 (standard alphabet), 64-bit numbers as strings, shard ids
 * as upper-case hex of the unsigned value (`%X`), opcodes as `0x%08x`.
 */

/**
 * A bytea column as the converters read it: a Buffer (the pg driver's), or already its base64 text
 * (PostgreSQL's encode(..., 'base64') in sql/bundle.ts, so the answer's hashes and BoCs are never
 * turned into Buffers and back: that round trip was a large part of a page's CPU).
 */
export type Bytes = Buffer | string;

export function b64(value: Bytes): string;
export function b64(value: Bytes | null | undefined): string | null;
export function b64(value: Bytes | null | undefined): string | null {
  if (typeof value === 'string') return value;
  return value ? value.toString('base64') : null;
}

/**
 * A map key of a bytea value: a Buffer's hex, a string (base64 text) itself. One load's rows are all
 * of one kind, so its keys (messages by transaction, states by hash) agree.
 */
export function bytesKey(value: Bytes): string {
  return typeof value === 'string' ? value : value.toString('hex');
}

/** pg returns bigint columns as strings already; numbers and bigints become their decimal text. */
export function str64(value: string | number | bigint | null | undefined): string | null {
  return value === null || value === undefined ? null : String(value);
}

/**
 * Shard ids already written: a chain has a handful, and a page of 100 blocks writes ~300 of them
 * (each block's shard, its masterchain block's, its previous blocks'), each a BigInt parse.
 */
const SHARD_HEX_LIMIT = 4096;
const shardHexCache = new Map<string, string>();

export function shardHex(shard: string | bigint): string {
  const key = String(shard);
  let hex = shardHexCache.get(key);
  if (hex === undefined) {
    hex = BigInt.asUintN(64, BigInt(shard)).toString(16).toUpperCase();
    if (shardHexCache.size >= SHARD_HEX_LIMIT) shardHexCache.clear();
    shardHexCache.set(key, hex);
  }
  return hex;
}

export function opcodeHex(opcode: number | null | undefined): string | null {
  if (opcode === null || opcode === undefined) return null;
  return `0x${(opcode >>> 0).toString(16).padStart(8, '0')}`;
}

/** int32 columns; pg returns integer as number, bigint as string. */
export function num(value: string | number | null | undefined): number | null {
  return value === null || value === undefined ? null : Number(value);
}

/** A wallet code (ton-index-go's WalletsHashMap is the same list as the project's wallet table). */
export function isWalletCodeHash(codeHash: Buffer | null): boolean {
  return codeHash !== null && walletKindByCodeHash(codeHash) !== undefined;
}

/**
 * ton-index-go's interface names (detect.DetectInterface) for the wallet codes the project knows,
 * keyed by the wallet type name of converters' wallet table.
 */
const WALLET_INTERFACES: ReadonlyMap<string, string> = new Map([
  ['wallet v1 r1', 'wallet_v1r1'],
  ['wallet v1 r2', 'wallet_v1r2'],
  ['wallet v1 r3', 'wallet_v1r3'],
  ['wallet v2 r1', 'wallet_v2r1'],
  ['wallet v2 r2', 'wallet_v2r2'],
  ['wallet v3 r1', 'wallet_v3r1'],
  ['wallet v3 r2', 'wallet_v3r2'],
  ['wallet v4 r1', 'wallet_v4r1'],
  ['wallet v4 r2', 'wallet_v4r2'],
  ['wallet v5 beta', 'wallet_v5_beta'],
  ['wallet v5 r1', 'wallet_v5r1'],
]);

/**
 * DetectInterface by the code hash alone (the index keeps no contract_methods, so no detection by
 * get-methods): a known wallet code gives its one name, any other code none.
 */
export function interfacesOfCode(codeHash: Buffer | null): string[] {
  const kind = codeHash ? walletKindByCodeHash(codeHash) : undefined;
  const name = kind ? WALLET_INTERFACES.get(kind.name) : undefined;
  return name ? [name] : [];
}

/** GetAccountAddressFriendly's answer for an address it cannot read. */
export const ADDR_NONE = 'addr_none';

/**
 * The user-friendly form in `address_book` (GetAccountAddressFriendly): URL-safe; bounceable
 * unless the account has no code or wallet code; test-only on testnet.
 */
export function friendlyOf(raw: string, codeHash: Buffer | null, testnet: boolean): string | null {
  const match = /^(-?\d+):([0-9A-Fa-f]{64})$/.exec(raw.trim());
  if (!match) return null;
  const bounceable = !(codeHash === null || isWalletCodeHash(codeHash));
  return toFriendly(Number(match[1]), Buffer.from(match[2]!, 'hex'), { bounceable, testOnly: testnet, urlSafe: true });
}
