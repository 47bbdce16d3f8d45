/**
 * The verified masterchain head, end to end over ADNL/TCP against local chains: the pool proves
 * each server's head from the global config's init_block, refuses servers of another chain or
 * with forged proofs or heads (the reason on the status the healthcheck shows), proves looked-up
 * masterchain blocks, and resumes from the saved key block after a restart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPrivateKey, randomBytes, sign } from 'node:crypto';
import pino from 'pino';
import nacl from 'tweetnacl';
import { masterchainBlock } from '../../src/chain/blockRefs';
import { nodeIdShort } from '../../src/tl';
import { loadConfig } from '../../src/config';
import { LiteServerProofError } from '../../src/errors';
import { createLitePool, trustAnchorOf, type LitePool, type PooledServer, type TrustAnchor } from '../../src/liteclient';
import { startLocalnet, type Localnet } from '../../src/localnet';
import type { BlockLink } from '../../src/tl';
import { startServer } from '../../src/server';
import { TamperingLiteServer } from '../helpers/tamperingLiteServer';
import { until } from '../helpers/waiting';

const logger = pino({ level: 'silent' });
const PKCS8 = Buffer.from('302e020100300506032b657004220420', 'hex');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('verified masterchain head', () => {
  const seedA = Buffer.alloc(32, 0x21);
  const seedB = Buffer.alloc(32, 0x42);
  let chainA: Localnet;
  let chainB: Localnet;
  let anchorA: TrustAnchor;
  const relays: TamperingLiteServer[] = [];
  const pools: LitePool[] = [];
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thb-trust-'));

  beforeAll(async () => {
    chainA = await startLocalnet({ seed: seedA, accounts: 1, blockIntervalMs: 0 });
    chainB = await startLocalnet({ seed: seedB, accounts: 1, blockIntervalMs: 0 });
    for (let i = 0; i < 5; i++) {
      await chainA.chain.seal();
      await chainB.chain.seal();
    }
    anchorA = trustAnchorOf(chainA.globalConfig, 'chain A', undefined)!;
  }, 60_000);

  afterEach(async () => {
    for (const pool of pools.splice(0)) pool.close();
    for (const relay of relays.splice(0)) await relay.stop();
  });

  afterAll(async () => {
    await chainA?.stop();
    await chainB?.stop();
  });

  async function relay(chain: Localnet = chainA, seed: Buffer = seedA): Promise<TamperingLiteServer> {
    const created = new TamperingLiteServer(chain, seed);
    await created.start();
    relays.push(created);
    return created;
  }

  function pool(servers: PooledServer[], flags: string[] = [], anchor: TrustAnchor = anchorA): LitePool {
    const { config } = loadConfig(['--health-interval', '100', '--config-cache-dir', cacheDir, ...flags], {});
    const created = createLitePool({ servers, anchor }, config, logger);
    pools.push(created);
    return created;
  }

  const direct = (chain: Localnet): PooledServer => ({ host: chain.host, port: chain.port, publicKey: chain.publicKey, archival: true, weight: 1 });
  const proofQueries = (server: TamperingLiteServer) => server.calls.filter((kind) => kind === 'liteServer.getBlockProof').length;

  it('proves the local chain head from its init_block (the zero state) and follows new blocks', async () => {
    expect(anchorA.start.seqno).toBe(0);
    expect(anchorA.start.rootHash.equals(chainA.chain.zeroState.id.rootHash)).toBe(true);
    const honest = await relay();
    const lite = pool([honest.endpoint()]);
    await lite.start();
    await lite.waitHealthy(10_000);
    const head = lite.heads.headOf(0)!.last;
    expect(head.rootHash.equals(chainA.chain.lastMasterchainBlock().id.rootHash)).toBe(true);
    expect(lite.verifier!.isProven(head)).toBe(true);
    expect(proofQueries(honest)).toBeGreaterThanOrEqual(1);
    expect(lite.status()[0]).toMatchObject({ state: 'up', reason: null });

    const next = await chainA.chain.seal();
    await until(() => lite.heads.headOf(0)?.last.seqno === next.id.seqno, 5000, 'the new head is proven');
    expect(lite.heads.headOf(0)!.last.rootHash.equals(next.id.rootHash)).toBe(true);
  }, 30_000);

  it('servers reporting the same head share one proof walk', async () => {
    const [first, second] = [await relay(), await relay()];
    const lite = pool([first.endpoint(), second.endpoint()]);
    await lite.start();
    await until(() => lite.status().every((s) => s.state === 'up'), 10_000, 'both proven');
    await Promise.all([lite.heads.settled(0), lite.heads.settled(1)]);
    expect(proofQueries(first) + proofQueries(second)).toBe(1);
  }, 30_000);

  it("a server of another chain listed under this chain's init_block is not used, and the status says why", async () => {
    const lite = pool([direct(chainA), direct(chainB)]);
    await lite.start();
    await lite.waitHealthy(10_000);
    await until(() => /cannot prove/.test(lite.status()[1]!.reason ?? ''), 5000, 'chain B refused');
    const [a, b] = lite.status();
    expect(a).toMatchObject({ state: 'up', reason: null });
    expect(b!.state).toBe('unverified');
    expect(b!.reason).toMatch(/^head not verified: the server cannot prove its head from our trusted block/);
    // Every request reads chain A's head: chain B's blocks are never used.
    for (let i = 0; i < 20; i++) {
      const session = lite.openSession({}, Date.now() + 5000);
      const head = (await session.head()).last;
      expect(chainA.chain.store.byId({ ...head, shard: BigInt.asUintN(64, BigInt(head.shard)) })).toBeDefined();
      expect(session.usedServers).toEqual([0]);
    }
  }, 30_000);

  it('over HTTP: the global config file is the anchor, the healthcheck names the refused server, --trusted-block starts the walk', async () => {
    const file = path.join(cacheDir, 'mixed.config.json');
    const configB = chainB.globalConfig as { liteservers: unknown[] };
    // The operator mistake: chain B's server listed in chain A's config.
    fs.writeFileSync(file, JSON.stringify({ ...chainA.globalConfig, liteservers: [...(chainA.globalConfig as { liteservers: unknown[] }).liteservers, ...configB.liteservers] }));
    const block3 = chainA.chain.store.bySeqno(-1, 3)!.id;
    const flags = ['--liteservers', file, '--port', '0', '--metrics-port', '0', '--keyless-rps', '0', '--health-interval', '100', '--config-cache-dir', cacheDir];
    for (const extra of [[], ['--trusted-block', `-1:8000000000000000:3:${block3.rootHash.toString('hex')}:${block3.fileHash.toString('base64')}`]]) {
      const running = await startServer(loadConfig([...flags, ...extra], {}).config, logger);
      try {
        if (extra.length > 0) expect(running.pool.verifier!.isProven({ ...block3, shard: '-9223372036854775808' })).toBe(true);
        let body: { result: { healthy_liteservers: number; liteservers: Array<{ state: string; reason: string | null }> } } | undefined;
        async function refresh() {
          body = (await (await fetch(`${running.url}/api/v2/healthcheck`)).json()) as typeof body;
        }
        for (let i = 0; i < 100 && !/cannot prove/.test(body?.result.liteservers[1]?.reason ?? ''); i++) {
          await refresh();
          await sleep(50);
        }
        expect(body!.result.healthy_liteservers).toBe(1);
        expect(body!.result.liteservers[0]).toMatchObject({ state: 'up', reason: null });
        expect(body!.result.liteservers[1]!.state).toBe('unverified');
        const info = (await (await fetch(`${running.url}/api/v2/getMasterchainInfo`)).json()) as { result: { last: { seqno: number; root_hash: string } } };
        const last = chainA.chain.store.bySeqno(-1, info.result.last.seqno)!;
        expect(Buffer.from(info.result.last.root_hash, 'base64').equals(last.id.rootHash)).toBe(true);
      } finally {
        await running.stop();
      }
    }
  }, 60_000);

  it('only the other chain: no server is usable and the reason is given', async () => {
    const lite = pool([direct(chainB)]);
    await lite.start();
    await expect(lite.waitHealthy(2000)).rejects.toThrow(/#0 unverified \(head not verified: the server cannot prove its head/);
  }, 30_000);

  it('a forward link signed by a key outside the validator set: the server is not used', async () => {
    const liar = await relay();
    const stranger = randomBytes(32);
    const strangerKey = Buffer.from(nacl.sign.keyPair.fromSeed(stranger).publicKey);
    const signer = createPrivateKey({ key: Buffer.concat([PKCS8, stranger]), format: 'der', type: 'pkcs8' });
    liar.tamper('liteServer.getBlockProof', (proof) => ({
      ...proof,
      steps: proof.steps.map((link): BlockLink => {
        if (link.kind !== 'liteServer.blockLinkForward' || link.signatures.kind !== 'liteServer.signatureSet.ordinary') return link;
        const message = Buffer.concat([Buffer.from('706e0bc5', 'hex'), link.to.rootHash, link.to.fileHash]);
        const signature = { kind: 'liteServer.signature' as const, nodeIdShort: nodeIdShort(strangerKey), signature: sign(null, message, signer) };
        return { ...link, signatures: { ...link.signatures, signatures: [signature] } };
      }),
    }));
    const honest = await relay();
    const lite = pool([liar.endpoint(), honest.endpoint()]);
    await lite.start();
    await lite.waitHealthy(10_000);
    await until(() => /LITE_SERVER_PROOF/.test(lite.status()[0]!.reason ?? ''), 5000, 'the liar refused');
    expect(liar.tampered).toBeGreaterThan(0);
    expect(lite.status()[0]!.reason).toMatch(/head not verified: LITE_SERVER_PROOF: signatures of .* unknown validator/);
    expect(lite.status()[1]).toMatchObject({ state: 'up', reason: null });
    for (let i = 0; i < 10; i++) {
      const session = lite.openSession({}, Date.now() + 5000);
      await session.head();
      expect(session.usedServers).toEqual([1]);
    }
  }, 30_000);

  it('a head far ahead of the others is not believed, and does not make the honest server lag', async () => {
    const liar = await relay();
    liar.tamper('liteServer.getMasterchainInfo', (info) => ({ ...info, last: { ...info.last, seqno: info.last.seqno + 1000, rootHash: randomBytes(32) } }));
    const honest = await relay();
    const lite = pool([liar.endpoint(), honest.endpoint()]);
    await lite.start();
    await lite.waitHealthy(10_000);
    await until(() => /cannot prove/.test(lite.status()[0]!.reason ?? ''), 5000, 'the liar refused');
    expect(lite.status()[0]!.state).toBe('unverified');
    expect(lite.status()[0]!.reason).toMatch(/head not verified: the server cannot prove its head/);
    expect(lite.status()[1]).toMatchObject({ state: 'up', lag: 0 });
    expect(lite.consensusSeqno()).toBe(chainA.chain.lastMasterchainBlock().id.seqno);
  }, 30_000);

  it('a looked-up masterchain block that is not the chain\'s is refused (502) and asked of another server', async () => {
    const liar = await relay();
    liar.tamper('liteServer.lookupBlock', (header, query) =>
      query.id.workchain === -1 ? { ...header, id: { ...header.id, rootHash: randomBytes(32) } } : header,
    );
    const alone = pool([liar.endpoint()]);
    await alone.start();
    await alone.waitHealthy(10_000);
    const error = await masterchainBlock(alone.openSession({}, Date.now() + 5000), 3).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(LiteServerProofError);
    expect((error as LiteServerProofError).code).toBe(502);
    // Caught by the lookup's own header-proof check (proof-answers) or by the backward proof to the head.
    const caught = /(cannot prove masterchain block 3|lookupBlock header proof: the proof is not of block 3)/;
    expect((error as Error).message).toMatch(new RegExp(`^LITE_SERVER_PROOF: ${caught.source}`));
    expect(alone.status()[0]!.reason).toMatch(new RegExp(`^bad proof: ${caught.source}`));
    alone.close();

    const honest = await relay();
    const both = pool([liar.endpoint({ weight: 1000 }), honest.endpoint({ weight: 0.001 })]);
    await both.start();
    await both.waitHealthy(10_000);
    await until(() => both.status().every((s) => s.state === 'up'), 5000, 'both up');
    const session = both.openSession({}, Date.now() + 5000);
    const block = await masterchainBlock(session, 2);
    expect(block.rootHash.equals(chainA.chain.store.bySeqno(-1, 2)!.id.rootHash)).toBe(true);
    expect(session.usedServers).toEqual([0, 1]);
    expect(both.status()[0]!.reason).toMatch(/^bad proof/);
  }, 40_000);

  it('a restart resumes from the saved key block instead of walking from the zero state', async () => {
    // 40 key blocks after genesis: a walk from the zero state takes several getBlockProof answers.
    for (let i = 0; i < 40; i++) await chainA.chain.sealKeyBlock();
    await chainA.chain.seal();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thb-restart-'));
    const first = await relay();
    const before = pool([first.endpoint()], ['--config-cache-dir', dir]);
    await before.start();
    await before.waitHealthy(15_000);
    const walk = proofQueries(first);
    expect(walk).toBeGreaterThanOrEqual(3);
    const saved = JSON.parse(fs.readFileSync(path.join(dir, fs.readdirSync(dir)[0]!), 'utf8')) as { seqno: number };
    expect(saved.seqno).toBe(chainA.chain.lastMasterchainBlock().id.seqno - 1);
    before.close();

    const second = await relay();
    const after = pool([second.endpoint()], ['--config-cache-dir', dir]);
    await after.start();
    await after.waitHealthy(15_000);
    expect(after.verifier!.keyBlock.seqno).toBe(saved.seqno);
    expect(after.heads.headOf(0)!.last.seqno).toBe(chainA.chain.lastMasterchainBlock().id.seqno);
    expect(proofQueries(second)).toBe(1);
  }, 60_000);
});
