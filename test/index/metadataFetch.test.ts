import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchMetadataDocument, isPrivateAddress, MetadataFetcher, type MetadataFetchOptions } from '../../src/indexer';
import type { MetadataCacheRow } from '../../src/indexdb';

/**
 * `--metadata-fetch`'s fetches against a real HTTP server on loopback: a JSON document is read
 * (only when private addresses are allowed), loopback is refused by default, a document over the
 * size limit (declared or streamed) and a server that never answers fail with their reasons, other
 * protocols are refused; the background fetcher writes one cache row per URI.
 */
describe('off-chain metadata fetch', () => {
  let server: http.Server;
  let base: string;
  const hanging = new Set<http.ServerResponse>();
  const document = {
    name: 'Off-chain jetton',
    symbol: 'OFF',
    description: 'served by the test',
    image: 'https://example.org/off.png',
    decimals: '6',
  };

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/meta.json') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(document));
      } else if (req.url === '/big-declared.json') {
        res.setHeader('content-length', String(5000));
        res.end('x'.repeat(5000));
      } else if (req.url === '/big-streamed.json') {
        // No length header: the limit is met while reading.
        res.write('['.padEnd(3000, ' '));
        res.end(' '.repeat(3000) + ']');
      } else if (req.url === '/redirect') {
        res.statusCode = 302;
        res.setHeader('location', '/meta.json');
        res.end();
      } else if (req.url === '/array.json') {
        res.end('[1, 2]');
      } else if (req.url === '/slow.json') {
        hanging.add(res);
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const allowed: MetadataFetchOptions = { timeoutMs: 5000, maxBytes: 4096, concurrency: 2, allowPrivate: true };

  it('reads a JSON document (loopback allowed by the option), following a redirect', async () => {
    await expect(fetchMetadataDocument(`${base}/meta.json`, allowed)).resolves.toEqual(document);
    await expect(fetchMetadataDocument(`${base}/redirect`, allowed)).resolves.toEqual(document);
  });

  it('refuses loopback and private addresses by default', async () => {
    await expect(fetchMetadataDocument(`${base}/meta.json`, { ...allowed, allowPrivate: false })).rejects.toThrow(
      'blocked request to private IP: 127.0.0.1',
    );
    await expect(fetchMetadataDocument('http://localhost:9/meta.json', { ...allowed, allowPrivate: false })).rejects.toThrow(
      /blocked request to private IP/,
    );
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
    ]) {
      expect([address, isPrivateAddress(address)]).toEqual([address, true]);
    }
    for (const address of ['1.1.1.1', '8.8.8.8', '2606:4700::1111']) expect([address, isPrivateAddress(address)]).toEqual([address, false]);
  });

  it('fails a document over the size limit, declared or streamed', async () => {
    await expect(fetchMetadataDocument(`${base}/big-declared.json`, allowed)).rejects.toThrow('document larger than 4096 bytes');
    await expect(fetchMetadataDocument(`${base}/big-streamed.json`, allowed)).rejects.toThrow('document larger than 4096 bytes');
  });

  it('fails a server that does not answer within the deadline', async () => {
    await expect(fetchMetadataDocument(`${base}/slow.json`, { ...allowed, timeoutMs: 300 })).rejects.toThrow('timed out after 300 ms');
  });

  it('refuses other protocols, non-objects and error statuses', async () => {
    await expect(fetchMetadataDocument('ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi', allowed)).rejects.toThrow(
      'unsupported protocol: ipfs',
    );
    await expect(fetchMetadataDocument('file:///etc/passwd', allowed)).rejects.toThrow('unsupported protocol: file');
    await expect(fetchMetadataDocument(`${base}/array.json`, allowed)).rejects.toThrow('the document is not a JSON object');
    await expect(fetchMetadataDocument(`${base}/missing.json`, allowed)).rejects.toThrow('non-OK HTTP status: 404');
  });

  it('writes one cache row per URI asked, the document or the failure', async () => {
    const rows: MetadataCacheRow[] = [];
    const fetcher = new MetadataFetcher(allowed, async (row) => void rows.push(row), {
      warn: () => undefined,
      debug: () => undefined,
    } as never);
    fetcher.request([`${base}/meta.json`, `${base}/big-declared.json`, `${base}/meta.json`]);
    await fetcher.settled();
    await fetcher.stop();
    const byUri = new Map(rows.map((r) => [r.uri, r]));
    expect(rows).toHaveLength(2);
    expect(byUri.get(`${base}/meta.json`)).toMatchObject({ valid: true, content: document, error: null });
    expect(byUri.get(`${base}/big-declared.json`)).toMatchObject({ valid: false, content: null, error: 'document larger than 4096 bytes' });
    const row = byUri.get(`${base}/meta.json`)!;
    expect(row.expires_at - row.fetched_at).toBe(7 * 24 * 3600);
  });
});
