import { Cell } from '@ton/core';
import { bocBase64 } from '../cells';
import { hashToBase64 } from './blockId';

/** getLibraries: `smc.libraryResult` (only the libraries the lite server found). */

export interface LibraryEntryJson {
  '@type': 'smc.libraryEntry';
  hash: string;
  /** BoC of the library's code cell. */
  data: string;
}

export interface LibraryResultJson {
  '@type': 'smc.libraryResult';
  result: LibraryEntryJson[];
}

export interface LibraryEntryInput {
  hash: Buffer | bigint;
  /** The code cell, or the BoC bytes exactly as the lite server returned them (tonlib passes them through). */
  data: Cell | Buffer;
}

export function toLibraryEntry(entry: LibraryEntryInput): LibraryEntryJson {
  return {
    '@type': 'smc.libraryEntry',
    hash: hashToBase64(entry.hash),
    data: Buffer.isBuffer(entry.data) ? entry.data.toString('base64') : bocBase64(entry.data),
  };
}

export function toLibraryResult(entries: LibraryEntryInput[]): LibraryResultJson {
  return { '@type': 'smc.libraryResult', result: entries.map(toLibraryEntry) };
}
