import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { buildOpenApiDocument } from '../../src/docs/openapi';
import { LOCALNET_PATHS } from '../../src/docs/localnetPaths';
import { resultSchemaRef } from '../../src/docs/results';
import { createHandlerTable } from '../../src/methods';
import type { HandlerCategory } from '../../src/methods/types';
import { buildTestApp } from '../helpers/app';
import { resultValidators, validateOpenApi } from '../helpers/openapi';

/** The OpenAPI document is generated from the handler table, valid OpenAPI 3.1, and complete. */

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Array<{ name: string; description: string; required: boolean }>;
        requestBody?: { content: Record<string, { schema: { properties: Record<string, { description: string }>; required?: string[] } }> };
      }
    >
  >;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, { in: string; name: string }> };
};

const table = createHandlerTable();
const doc = buildOpenApiDocument(table) as unknown as Doc;

test('the document validates as OpenAPI 3.1', () => {
  const outcome = validateOpenApi(doc);
  expect(outcome.errors).toBeNull();
  expect(outcome.valid).toBe(true);
  expect(outcome.version).toBe('3.1');
  expect(doc.openapi).toBe('3.1.0');
});

test('the validator is not a rubber stamp: a broken document fails', () => {
  const broken = JSON.parse(JSON.stringify(doc)) as Doc & { info?: unknown };
  delete broken.info;
  expect(validateOpenApi(broken).valid).toBe(false);
});

test('every method of the table is documented on exactly its verbs, with every parameter described', () => {
  for (const handler of table.handlers) {
    for (const name of [handler.name, ...handler.aliases]) {
      const item = doc.paths[`/api/v2/${name}`]!;
      expect(Object.keys(item).sort()).toEqual(handler.verbs.map((verb) => verb.toLowerCase()).sort());
      const names = Object.keys(handler.params).sort();
      if (item['get']) {
        const parameters = item['get'].parameters!;
        expect(parameters.map((p) => p.name).sort()).toEqual(names);
        for (const p of parameters) expect([name, p.name, p.description.length > 0]).toEqual([name, p.name, true]);
      }
      if (item['post']) {
        const schema = item['post'].requestBody!.content['application/json']!.schema;
        expect(Object.keys(schema.properties).sort()).toEqual(names);
        for (const [param, property] of Object.entries(schema.properties))
          expect([name, param, property.description.length > 0]).toEqual([name, param, true]);
      }
    }
  }
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v2/jsonRPC', '/api/v2/healthcheck']));
  expect(doc.components.securitySchemes).toMatchObject({
    APIKeyHeader: { in: 'header', name: 'X-API-Key' },
    APIKeyQuery: { in: 'query', name: 'api_key' },
  });
});

test('a result schema rejects a wrong answer', () => {
  const validator = resultValidators(doc);
  const masterchainInfo = validator(resultSchemaRef('getMasterchainInfo').$ref);
  const block = { '@type': 'ton.blockIdExt', workchain: -1, shard: '-9223372036854775808', seqno: 5, root_hash: 'AA==', file_hash: 'AA==' };
  expect(masterchainInfo({ '@type': 'blocks.masterchainInfo', last: block, state_root_hash: 'AA==', init: block, extra_key: 1 })).toBe(
    true,
  );
  expect(masterchainInfo({ '@type': 'blocks.masterchainInfo', last: { ...block, seqno: '5' }, state_root_hash: 'AA==', init: block })).toBe(
    false,
  );
  expect(masterchainInfo({ '@type': 'blocks.header', last: block, state_root_hash: 'AA==', init: block })).toBe(false);
});

test('extra non-v2 paths (e.g. /localnet/*) can be added to the document', () => {
  const extended = buildOpenApiDocument(table, {
    '/localnet/reset': { post: { summary: 'reset', responses: { '200': { description: 'ok' } } } },
  }) as unknown as Doc;
  expect(extended.paths['/localnet/reset']).toBeDefined();
  expect(validateOpenApi(extended).valid).toBe(true);
});

test("the local chain's controls (/localnet/*) are a valid part of the document", () => {
  const withControls = buildOpenApiDocument(table, LOCALNET_PATHS) as unknown as Doc;
  const outcome = validateOpenApi(withControls);
  expect(outcome.errors).toBeNull();
  expect(outcome.valid).toBe(true);
  const routes = Object.keys(withControls.paths).filter((p) => p.startsWith('/localnet/'));
  expect(routes.sort()).toEqual(
    ['fund', 'global.config.json', 'mine', 'restore', 'snapshot', 'status', 'time'].map((route) => `/localnet/${route}`),
  );
});

test('served at /api/v2/openapi.json, Swagger UI at /api/v2/ from the local package, outside keys and limits', async () => {
  const { app } = buildTestApp(['--keyless-rps', '1']);
  const json = await request(app).get('/api/v2/openapi.json');
  expect(json.status).toBe(200);
  expect(json.body).toEqual(JSON.parse(JSON.stringify(doc)));
  const page = await request(app).get('/api/v2/');
  expect(page.status).toBe(200);
  expect(page.headers['content-type']).toContain('text/html');
  expect(page.text).toContain('docs/swagger-ui-bundle.js');
  expect(page.text).not.toMatch(/https?:\/\//);
  expect((await request(app).get('/api/v2')).headers['location']).toBe('/api/v2/');
  const bundle = await request(app).get('/api/v2/docs/swagger-ui-bundle.js');
  expect(bundle.status).toBe(200);
  expect(bundle.text.length).toBeGreaterThan(100_000);
  expect((await request(app).get('/api/v2/docs/init.js')).text).toContain("url: 'openapi.json'");
  expect((await request(app).get('/api/v2/docs/package.json')).status).toBe(404);
  expect((await request(app).get('/api/v2/docs/..%2fpackage.json')).status).toBe(404);
});

test("docs/api.md's method table is the handler table", () => {
  const readme = fs.readFileSync(path.resolve(__dirname, '..', '..', 'docs', 'api.md'), 'utf8');
  const rows = new Map<string, string>();
  for (const match of readme.matchAll(/^\| (utils|accounts|blocks|transactions|config|run|send) \| (.+) \|$/gm))
    rows.set(match[1]!, match[2]!);
  const expected = new Map<HandlerCategory, string[]>();
  for (const handler of table.handlers) {
    const text = handler.aliases.length ? `${handler.name} (= ${handler.aliases.join(', ')})` : handler.name;
    expected.set(handler.category, [...(expected.get(handler.category) ?? []), text]);
  }
  // Same methods and aliases per category (the docs keep their own reading order).
  const sorted = (list: string[]) => [...list].sort();
  expect(Object.fromEntries([...rows].map(([category, text]) => [category, sorted(text.split(', '))]))).toEqual(
    Object.fromEntries([...expected].map(([category, names]) => [category, sorted(names)])),
  );
});
