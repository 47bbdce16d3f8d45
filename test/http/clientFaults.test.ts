import { startLocalStack, type LocalStack } from '../helpers/localStack';

/**
 * Two client mistakes that used to be answered as if they were the server's (found by fuzzing
 * from outside), now answered through the one error mapping: a getShardBlockProof start block
 * older than the block that registers the shard block is a 422, not a 500; a JSON-RPC body that
 * cannot be parsed answers with `"id": null` (JSON-RPC 2.0), having no call to name.
 */

const FULL_SHARD = '-9223372036854775808';

let stack: LocalStack;

beforeAll(async () => {
  stack = await startLocalStack(['--block-interval', '200']);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

async function getJson(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

test('getShardBlockProof with from_seqno before the registering masterchain block: 422 with tonlib words, not 500', async () => {
  // A masterchain block that registers a new basechain block (each round seals every shard).
  await stack.localnet.chain.waitForMasterchainSeqno(3, 30_000);
  const mcSeqno = 3;
  const shards = await getJson(`${stack.api}/getShards?seqno=${mcSeqno}`);
  expect(shards.status).toBe(200);
  const top = (shards.body['result'] as { shards: { workchain: number; shard: string; seqno: number }[] }).shards[0]!;
  const proof = await getJson(`${stack.api}/getShardBlockProof?workchain=${top.workchain}&shard=${top.shard}&seqno=${top.seqno}`);
  expect(proof.status).toBe(200);
  const registeredBy = (proof.body['result'] as { mc_id: { seqno: number } }).mc_id.seqno;
  expect(registeredBy).toBeGreaterThan(1);

  const tooOld = await getJson(
    `${stack.api}/getShardBlockProof?workchain=${top.workchain}&shard=${top.shard}&seqno=${top.seqno}&from_seqno=${registeredBy - 1}`,
  );
  expect(tooOld.status).toBe(422);
  expect(tooOld.body).toEqual({
    ok: false,
    code: 422,
    error: `failed to validate request: from mc block is too old: the shard block is registered by masterchain block ${registeredBy}, after from_seqno ${registeredBy - 1}`,
  });
  // The masterchain's own full shard is not affected: a block proves itself.
  const self = await getJson(`${stack.api}/getShardBlockProof?workchain=-1&shard=${FULL_SHARD}&seqno=${registeredBy}&from_seqno=${registeredBy}`);
  expect(self.status).toBe(200);
}, 120_000);

test('a JSON-RPC body that cannot be parsed answers "id": null; the same body on a REST path has no JSON-RPC fields', async () => {
  const nested = `${'['.repeat(10_000)}1${']'.repeat(10_000)}`;
  for (const body of [nested, '{"jsonrpc": "2.0", "id": 7, "method": ']) {
    const res = await fetch(`${stack.api}/jsonRPC`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect(res.status).toBe(422);
    const answer = (await res.json()) as Record<string, unknown>;
    expect(answer).toEqual({ ok: false, error: expect.stringMatching(/^failed to parse post request: /), code: 422, jsonrpc: '2.0', id: null });
    expect(Object.keys(answer)).toEqual(['ok', 'error', 'code', 'jsonrpc', 'id']);
  }
  const rest = await fetch(`${stack.api}/detectAddress`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: nested });
  expect(rest.status).toBe(422);
  expect(await rest.json()).toEqual({ ok: false, error: 'failed to parse post request: JSON nesting is deeper than 1024 levels', code: 422 });
}, 60_000);
