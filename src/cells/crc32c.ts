/** CRC-32C (Castagnoli), table-driven: BoCs of several megabytes are checksummed on every save. */
const TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** A running checksum: start with CRC32C_START, feed the bytes in parts, then crc32cFinish. */
export const CRC32C_START = -1;

export function crc32cUpdate(crc: number, data: Uint8Array): number {
  for (let i = 0; i < data.length; i++) crc = TABLE[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return crc;
}

export function crc32cFinish(crc: number): number {
  return (crc ^ -1) >>> 0;
}

export function crc32cValue(data: Uint8Array): number {
  return crc32cFinish(crc32cUpdate(CRC32C_START, data));
}

/** The 4 little-endian bytes a BoC ends with. */
export function crc32cBytes(data: Uint8Array): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32LE(crc32cValue(data), 0);
  return out;
}
