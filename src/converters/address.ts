import { Address, ExternalAddress } from '@ton/core';

/** Address renderings used in toncenter outputs. */

export interface AccountAddressJson {
  '@type': 'accountAddress';
  account_address: string;
}

export interface FriendlyFlags {
  bounceable: boolean;
  testOnly: boolean;
}

/**
 * The form tonlib puts in transactions, messages and `accountAddress` objects: user-friendly,
 * bounceable, URL-safe, without the test-only flag (`EQ…` / `Ef…`). Anything that is not a standard
 * internal address (addr_none, external addresses, addr_var) becomes `""`.
 */
export function tonlibAddress(address: Address | ExternalAddress | null | undefined): string {
  if (!address || !Address.isAddress(address)) return '';
  return address.toString({ bounceable: true, urlSafe: true, testOnly: false });
}

/** URL-safe friendly form with chosen flags (getExtendedAddressInformation echoes the caller's flags). */
export function friendlyAddress(address: Address, flags: FriendlyFlags): string {
  return address.toString({ bounceable: flags.bounceable, urlSafe: true, testOnly: flags.testOnly });
}

export function toAccountAddress(accountAddress: string): AccountAddressJson {
  return { '@type': 'accountAddress', account_address: accountAddress };
}

/** `"<wc>:<64 lowercase hex>"` (detectAddress raw_form, blocks.shortTxId account, Py raw forms). */
export function rawAddressLower(address: Address): string {
  return `${address.workChain}:${address.hash.toString('hex')}`;
}

/** `"<wc>:<64 UPPERCASE hex>"` (C++ unpackAddress, ext.transaction account, the suspended list). */
export function rawAddressUpper(address: Address): string {
  return `${address.workChain}:${address.hash.toString('hex').toUpperCase()}`;
}

/** An account address from a workchain and the 256-bit account id (bigint or 32 bytes). */
export function addressFromAccountId(workchain: number, accountId: bigint | Buffer): Address {
  const hash = Buffer.isBuffer(accountId) ? accountId : Buffer.from(accountId.toString(16).padStart(64, '0'), 'hex');
  if (hash.length !== 32) throw new Error(`account id must be 32 bytes, got ${hash.length}`);
  return new Address(workchain, hash);
}
