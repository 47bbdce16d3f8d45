const HEX_64 = /^[0-9a-fA-F]{64}$/;
const B64_STD_PADDED = /^[A-Za-z0-9+/]{43}=$/;
const B64_URL_PADDED = /^[A-Za-z0-9_-]{43}=$/;
const B64_URL_UNPADDED = /^[A-Za-z0-9_-]{43}$/;

/**
 * Parses a 256-bit hash as toncenter's C++ `ton_hash` does: 64 hex digits, 44 characters of
 * padded standard or URL-safe base64, or 43 characters of unpadded URL-safe base64.
 * Returns undefined when the input is none of these.
 */
export function parseHash256(input: string): Buffer | undefined {
  if (HEX_64.test(input)) return Buffer.from(input, 'hex');
  if (B64_STD_PADDED.test(input)) return Buffer.from(input, 'base64');
  if (B64_URL_PADDED.test(input) || B64_URL_UNPADDED.test(input)) return Buffer.from(input, 'base64url');
  return undefined;
}

const B64_STRICT = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Strict standard base64 with padding (BoCs, bodies); the empty string is the empty byte string. */
export function parseBase64Bytes(input: string): Buffer | undefined {
  if (!B64_STRICT.test(input)) return undefined;
  return Buffer.from(input, 'base64');
}
