/**
 * The trust anchor: the global config's validator section, --trusted-block, the saved key block,
 * and the refusal to verify nothing (no zero state) unless --trust-liteservers says so.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { createLitePool } from '../../src/liteclient';
import { KeyBlockStore, parseTrustedBlock, trustAnchorOf } from '../../src/liteclient/trust';

const ROOT = Buffer.alloc(32, 1);
const FILE = Buffer.alloc(32, 2);
const zeroState = { workchain: -1, shard: -9223372036854775808, seqno: 0, root_hash: ROOT.toString('base64'), file_hash: FILE.toString('base64') };
const initBlock = { ...zeroState, seqno: 1000, root_hash: Buffer.alloc(32, 3).toString('base64') };

describe('trust anchor', () => {
  it('starts at --trusted-block, else init_block, else the zero state', () => {
    const trusted = `-1:8000000000000000:2000:${'ab'.repeat(32)}:${Buffer.alloc(32, 9).toString('base64')}`;
    expect(trustAnchorOf({ validator: { zero_state: zeroState } }, 'c', undefined)!.start.seqno).toBe(0);
    const fromInit = trustAnchorOf({ validator: { zero_state: zeroState, init_block: initBlock } }, 'c', undefined)!;
    expect(fromInit.start.seqno).toBe(1000);
    expect(fromInit.start.rootHash.equals(Buffer.alloc(32, 3))).toBe(true);
    expect(fromInit.zeroState.rootHash.equals(ROOT)).toBe(true);
    const fromFlag = trustAnchorOf({ validator: { zero_state: zeroState, init_block: initBlock } }, 'c', trusted)!;
    expect(fromFlag.start.seqno).toBe(2000);
    expect(fromFlag.start.rootHash.toString('hex')).toBe('ab'.repeat(32));
    expect(fromFlag.start.fileHash.equals(Buffer.alloc(32, 9))).toBe(true);
    expect(trustAnchorOf({ liteservers: [] }, 'c', undefined)).toBeNull();
  });

  it('rejects trusted blocks it cannot use, with the reason', () => {
    const hash = 'ab'.repeat(32);
    expect(parseTrustedBlock(`-1:-9223372036854775808:5:${hash}:${hash}`).seqno).toBe(5);
    expect(() => parseTrustedBlock(`0:8000000000000000:5:${hash}:${hash}`)).toThrow(/masterchain block/);
    expect(() => parseTrustedBlock(`-1:4000000000000000:5:${hash}:${hash}`)).toThrow(/masterchain shard/);
    expect(() => parseTrustedBlock(`-1:8000000000000000:x:${hash}:${hash}`)).toThrow(/bad seqno/);
    expect(() => parseTrustedBlock(`-1:8000000000000000:5:abcd:${hash}`)).toThrow(/32 bytes/);
    expect(() => parseTrustedBlock('-1:8000000000000000:5')).toThrow(/five fields/);
    expect(() => trustAnchorOf({ validator: { zero_state: { ...zeroState, workchain: 0 } } }, 'c', undefined)).toThrow(/workchain -1/);
  });

  it('keeps one key block per chain; a file of another chain or a damaged one is ignored', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thb-anchor-'));
    const anchor = trustAnchorOf({ validator: { zero_state: zeroState } }, 'c', undefined)!;
    const store = new KeyBlockStore(dir, anchor.zeroState);
    expect(store.load()).toBeNull();
    expect(store.save({ ...anchor.zeroState, seqno: 77, rootHash: Buffer.alloc(32, 7) })).toBe(true);
    expect(store.load()).toMatchObject({ seqno: 77, rootHash: Buffer.alloc(32, 7) });
    const other = new KeyBlockStore(dir, { ...anchor.zeroState, rootHash: Buffer.alloc(32, 5) });
    expect(other.load()).toBeNull();
    const file = path.join(dir, fs.readdirSync(dir)[0]!);
    fs.writeFileSync(file, '{"seqno": "x"');
    expect(store.load()).toBeNull();
  });

  it('a config without a zero state is refused unless --trust-liteservers', () => {
    const servers = [{ host: '127.0.0.1', port: 1, publicKey: Buffer.alloc(32), archival: false, weight: 1 }];
    const logger = pino({ level: 'silent' });
    expect(() => createLitePool({ servers, anchor: null }, loadConfig([], {}).config, logger)).toThrow(/no validator.zero_state .* --trust-liteservers/);
    const pool = createLitePool({ servers, anchor: null }, loadConfig(['--trust-liteservers'], {}).config, logger);
    expect(pool.verifier).toBeUndefined();
    pool.close();
  });
});
