import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Address, beginCell } from '@ton/core';
import { storeJettonTransfer, storeNftTransfer, storeTextComment } from '../../src/tlb';
import { buildTestApp } from '../helpers/app';

/** `decode` over a real socket: GET and POST, opcode forms, decoded and undecodable bodies. */

const A = Address.parse('0:' + '11'.repeat(32));
const B = Address.parse('0:' + '22'.repeat(32));

const commentCell = beginCell().store(storeTextComment({ text: Buffer.from('thanks') })).endCell();
const transferCell = beginCell()
  .store(
    storeJettonTransfer({
      queryId: 77n,
      amount: 1_000_000_000n,
      destination: A,
      responseDestination: B,
      customPayload: null,
      forwardTonAmount: 1n,
      forwardPayload: { inRef: true, cell: commentCell },
    }),
  )
  .endCell();
const nftCell = beginCell()
  .store(storeNftTransfer({ queryId: 1n, newOwner: B, responseDestination: A, customPayload: null, forwardAmount: 0n, forwardPayload: { inRef: false, cell: beginCell().endCell() } }))
  .endCell();

describe('v3 decode', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const { app } = buildTestApp();
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3/decode`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  test('GET: opcodes in hex, 0x hex, signed decimal; bodies base64 and hex', async () => {
    const query = new URLSearchParams();
    for (const op of ['0x0f8a7ea5', '7362d09c', '-1', '0x12345678']) query.append('opcodes', op);
    query.append('bodies', transferCell.toBoc().toString('base64'));
    query.append('bodies', nftCell.toBoc().toString('hex'));
    const res = await fetch(`${base}?${query}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-api-version')).toBe('1.2.6');
    const body = (await res.json()) as { opcodes: string[]; bodies: Record<string, unknown>[] };
    expect(body.opcodes).toEqual(['jetton_transfer', 'jetton_notify', 'bounce', 'unknown']);
    expect(body.bodies[0]).toEqual({
      '@type': 'jetton_transfer',
      query_id: '77',
      amount: '1000000000',
      destination: A.toRawString().toUpperCase(),
      response_destination: B.toRawString().toUpperCase(),
      custom_payload: null,
      forward_ton_amount: '1',
      forward_payload: { '@type': 'text_comment', text: 'thanks' },
    });
    expect(body.bodies[1]).toMatchObject({ '@type': 'nft_transfer', new_owner: B.toRawString().toUpperCase(), forward_payload: null });
    // The docs file's DecodeResponse (toncenter-v3.yaml; the 1.2.6 file has no decode): a list of
    // strings and a list of objects.
    expect(body.opcodes.every((op) => typeof op === 'string')).toBe(true);
    expect(body.bodies.every((b) => typeof b === 'object' && b !== null && !Array.isArray(b))).toBe(true);
  });

  test('POST: a JSON object; an undecodable body answers in place, not as an error', async () => {
    const res = await fetch(base, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        opcodes: ['5fcc3d14'],
        bodies: [commentCell.toBoc().toString('base64'), 'te6not-a-boc', beginCell().storeUint(0xdeadbeef, 32).endCell().toBoc().toString('base64'), 'zz'],
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { opcodes: string[]; bodies: Record<string, unknown>[] };
    expect(body.opcodes).toEqual(['nft_transfer']);
    expect(body.bodies[0]).toEqual({ '@type': 'text_comment', text: 'thanks' });
    expect(String(body.bodies[1]!['error'])).toMatch(/^unknown: failed to deserialize boc/);
    expect(body.bodies[2]).toEqual({ error: 'unknown: no parser succeeded' });
    expect(String(body.bodies[3]!['error'])).toMatch(/^unknown: failed to decode hex/);
  });

  test('a bad opcode is a 422 with ton-index-go text; more than 1000 entries too', async () => {
    const bad = await fetch(`${base}?opcodes=0x1&opcodes=0xnothex`);
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({ error: 'invalid opcode format at index 1: nothex' });
    const tooBig = await fetch(`${base}?opcodes=123456789`);
    // 9 hex digits do not fit uint32; as decimal they do.
    expect(((await tooBig.json()) as { opcodes: string[] }).opcodes).toEqual(['unknown']);
    const many = await fetch(base, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ opcodes: Array.from({ length: 1001 }, () => '0') }),
    });
    expect(many.status).toBe(422);
    expect(await many.json()).toEqual({ error: 'opcodes list exceeds maximum length of 1000' });
    const wrongType = await fetch(base, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ bodies: [1] }) });
    expect(wrongType.status).toBe(422);
    const verb = await fetch(base, { method: 'PUT' });
    expect(verb.status).toBe(405);
  });
});
