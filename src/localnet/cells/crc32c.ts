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

export function crc32cValue(data: Uint8Array): number {
  let crc = -1;
  for (let i = 0; i < data.length; i++) crc = TABLE[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

/** The 4 little-endian bytes a BoC ends with. */
export function crc32cBytes(data: Uint8Array): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32LE(crc32cValue(data), 0);
  return out;
}
