import { Address } from '@ton/core';

/** How the caller wrote an address; detectAddress reports it back as `given_type`. */
export type AddressForm = 'raw_form' | 'friendly_bounceable' | 'friendly_non_bounceable';

export interface ParsedAddress {
  readonly address: Address;
  readonly workchain: number;
  /** 32-byte account id. */
  readonly hash: Buffer;
  readonly form: AddressForm;
  /** Flags of a friendly input; a raw input counts as bounceable, not test-only. */
  readonly bounceable: boolean;
  readonly testOnly: boolean;
}

const FRIENDLY_LENGTH = 48;
const TAG_BOUNCEABLE = 0x11;
const TAG_NON_BOUNCEABLE = 0x51;
const TAG_TEST_ONLY = 0x80;

/** CRC16/XMODEM, the checksum of friendly addresses. */
export function crc16(data: Uint8Array): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

const RAW_PATTERN = /^(-?\d{1,10}):([0-9a-fA-F]{64})$/;
const FRIENDLY_PATTERN = /^[A-Za-z0-9+/_-]{48}$/;

/**
 * Parses an account address the way toncenter's C++ server does: `<wc>:<64 hex>` in any case, or a
 * 48-character friendly address in the standard or URL-safe alphabet with a valid CRC16.
 * Returns undefined for anything else (callers turn that into a 422).
 */
export function parseAddress(input: string): ParsedAddress | undefined {
  const raw = RAW_PATTERN.exec(input);
  if (raw) {
    const workchain = Number(raw[1]);
    // Friendly forms store the workchain in one signed byte; TON only has -1 and 0 anyway.
    if (!Number.isInteger(workchain) || workchain < -128 || workchain > 127) return undefined;
    const hash = Buffer.from(raw[2]!, 'hex');
    return {
      address: new Address(workchain, hash),
      workchain,
      hash,
      form: 'raw_form',
      bounceable: true,
      testOnly: false,
    };
  }
  if (input.length !== FRIENDLY_LENGTH || !FRIENDLY_PATTERN.test(input)) return undefined;
  // Mixed alphabets are tolerated, as the C++ parser does after normalising.
  const bytes = Buffer.from(input.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length !== 36) return undefined;
  const tag = bytes[0]!;
  if ((tag & ~TAG_TEST_ONLY) !== TAG_BOUNCEABLE && (tag & ~TAG_TEST_ONLY) !== TAG_NON_BOUNCEABLE) {
    return undefined;
  }
  if (crc16(bytes.subarray(0, 34)) !== bytes.readUInt16BE(34)) return undefined;
  const workchain = bytes.readInt8(1);
  const hash = Buffer.from(bytes.subarray(2, 34));
  const bounceable = (tag & ~TAG_TEST_ONLY) === TAG_BOUNCEABLE;
  return {
    address: new Address(workchain, hash),
    workchain,
    hash,
    form: bounceable ? 'friendly_bounceable' : 'friendly_non_bounceable',
    bounceable,
    testOnly: (tag & TAG_TEST_ONLY) !== 0,
  };
}

export interface FriendlyFlags {
  bounceable: boolean;
  testOnly: boolean;
  urlSafe: boolean;
}

/** The 48-character friendly form of an address with the given flags. */
export function toFriendly(workchain: number, hash: Buffer, flags: FriendlyFlags): string {
  const bytes = Buffer.alloc(36);
  bytes[0] = (flags.bounceable ? TAG_BOUNCEABLE : TAG_NON_BOUNCEABLE) | (flags.testOnly ? TAG_TEST_ONLY : 0);
  bytes.writeInt8(workchain, 1);
  hash.copy(bytes, 2);
  bytes.writeUInt16BE(crc16(bytes.subarray(0, 34)), 34);
  const b64 = bytes.toString('base64');
  return flags.urlSafe ? b64.replace(/\+/g, '-').replace(/\//g, '_') : b64;
}

/** `<wc>:<hex>` with the hex in the requested case. */
export function toRawForm(workchain: number, hash: Buffer, upperCase = false): string {
  const hex = hash.toString('hex');
  return `${workchain}:${upperCase ? hex.toUpperCase() : hex}`;
}
