/**
 * How TL constructor ids are derived: CRC32 (IEEE) of the declaration normalised the way TON's
 * tl-parser prints it, unless the declaration carries an explicit `name#id`.
 */

const CRC32_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC32_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export interface TlDeclaration {
  /** Full constructor name, e.g. `liteServer.transactionId`. */
  name: string;
  /** Unsigned 32-bit constructor id. */
  id: number;
}

/**
 * Parses one TL declaration (`name[#id] fields... = Type;`, comments allowed) and returns its
 * constructor name and id. Parentheses are dropped and whitespace collapsed before hashing.
 */
export function tlDeclarationId(declaration: string): TlDeclaration {
  const text = declaration
    .replace(/\/\/.*$/gm, '')
    .replace(/;\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  const match = /^([A-Za-z0-9_.]+)(?:#([0-9a-fA-F]{1,8}))?(\s.*)?$/.exec(text);
  if (!match) throw new Error(`not a TL declaration: ${declaration}`);
  const [, name, explicitId, tail = ''] = match;
  if (explicitId !== undefined) return { name, id: parseInt(explicitId, 16) >>> 0 };
  const normalised = `${name}${tail}`.replace(/[()]/g, '').replace(/\s+/g, ' ').trim();
  return { name, id: crc32(Buffer.from(normalised, 'utf8')) };
}
