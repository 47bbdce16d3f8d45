import { API_VERSION } from '../routes';
import { v3OpenApiPaths } from '../v3';
import type { HandlerTable, Handler, HandlerCategory, JsonSchema } from '../methods';
import { describeParam, isRequired, paramSchema } from './params';
import { componentSchemas, resultSchemaRef } from './results';

/**
 * The OpenAPI 3.1 document of the API, generated from the handler table: every method on its
 * verbs (GET: query parameters, POST: a JSON body), its result schema, the v2 envelope and
 * error envelope, API keys, and JSON-RPC. Served at /api/v2/openapi.json and read by Swagger UI.
 */

/** Paths outside the v2 table to document too, as OpenAPI path items (e.g. `/localnet/reset`). */
export type ExtraPaths = Readonly<Record<string, Record<string, unknown>>>;

const CATEGORY_TEXT: Readonly<Record<HandlerCategory, string>> = {
  utils: 'Address and hash forms; no lite server needed',
  accounts: 'Account state, wallets, tokens, DNS',
  blocks: 'Masterchain, shards, headers, proofs',
  transactions: 'Account and block transactions, locating transactions of a message',
  config: 'Blockchain config and libraries',
  run: 'Get-methods, run locally in the TVM emulator',
  send: 'Sending external messages and estimating fees',
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function successEnvelope(result: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['ok', 'result'],
    properties: {
      ok: { const: true },
      result,
      '@extra': { type: 'string', description: '`<unix seconds>:<lite server indices or _>:<elapsed ms>`' },
    },
  };
}

const ERROR_RESPONSE = {
  description: 'Error envelope; the HTTP status equals `code` (422 bad parameter, 429 rate limit, 503 no lite server, 504 timeout...)',
  content: { 'application/json': { schema: ref('Error') } },
};

function operation(handler: Handler, verb: 'GET' | 'POST', path: string): Record<string, unknown> {
  const entries = Object.entries(handler.params);
  const op: Record<string, unknown> = {
    tags: [handler.category],
    summary: handler.summary,
    operationId: `${path.slice(1)}_${verb.toLowerCase()}`,
    responses: {
      '200': { description: 'Success', content: { 'application/json': { schema: successEnvelope(resultSchemaRef(handler.name)) } } },
      default: ERROR_RESPONSE,
    },
  };
  if (verb === 'GET') {
    op['parameters'] = entries.map(([name, param]) => ({
      name,
      in: 'query',
      required: isRequired(param),
      description: describeParam(name),
      schema: paramSchema(param, 'query'),
      ...(param.repeated ? { style: 'form', explode: true } : {}),
    }));
  } else {
    const required = entries.filter(([, param]) => isRequired(param)).map(([name]) => name);
    op['requestBody'] = {
      required: required.length > 0,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            ...(required.length ? { required } : {}),
            properties: Object.fromEntries(
              entries.map(([name, param]) => [name, { ...paramSchema(param, 'body'), description: describeParam(name) }]),
            ),
          },
        },
      },
    };
  }
  return op;
}

function jsonRpcPath(table: HandlerTable): Record<string, unknown> {
  const request = {
    type: 'object',
    required: ['method'],
    properties: {
      jsonrpc: { const: '2.0' },
      id: { type: ['string', 'integer', 'null'], description: 'echoed with its type' },
      method: { type: 'string', enum: table.names() },
      params: { type: 'object', description: "the method's parameters by name, as in its POST body" },
    },
  };
  return {
    post: {
      tags: ['jsonrpc'],
      summary: 'JSON-RPC 2.0 over the same methods; a batch (array) is answered element by element',
      operationId: 'jsonRPC',
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { oneOf: [request, { type: 'array', items: request, minItems: 1 }] } } },
      },
      responses: {
        '200': {
          description: "The call's envelope plus `jsonrpc` and `id`; `result` has the method's result schema",
          content: {
            'application/json': {
              schema: {
                oneOf: [
                  { allOf: [successEnvelope({}), { type: 'object', properties: { jsonrpc: { const: '2.0' }, id: {} } }] },
                  { type: 'array', items: { type: 'object' } },
                ],
              },
            },
          },
        },
        default: ERROR_RESPONSE,
      },
    },
  };
}

export function buildOpenApiDocument(table: HandlerTable, extraPaths: ExtraPaths = {}): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const handler of table.handlers) {
    for (const name of [handler.name, ...handler.aliases]) {
      const path = `/api/v2/${name}`;
      const item: Record<string, unknown> = {};
      if (handler.verbs.includes('GET')) item['get'] = operation(handler, 'GET', `/${name}`);
      if (handler.verbs.includes('POST')) item['post'] = operation(handler, 'POST', `/${name}`);
      if (name !== handler.name) {
        for (const op of Object.values(item) as Array<Record<string, unknown>>) op['description'] = `Alias of \`${handler.name}\`.`;
      }
      paths[path] = item;
    }
  }
  paths['/api/v2/jsonRPC'] = jsonRpcPath(table);
  paths['/api/v2/healthcheck'] = {
    get: {
      tags: ['service'],
      summary: 'Lite-server health: 200 while at least one lite server is usable, 503 (same body) otherwise',
      operationId: 'healthcheck',
      security: [],
      responses: {
        '200': { description: 'At least one lite server is usable', content: { 'application/json': { schema: ref('Health') } } },
        '503': { description: 'No lite server is usable; each one says why', content: { 'application/json': { schema: ref('Health') } } },
      },
    },
  };
  // toncenter's indexed v3 routes (src/v3), in the same document.
  Object.assign(paths, v3OpenApiPaths(), extraPaths);
  return {
    openapi: '3.1.0',
    info: {
      title: 'TON HTTP API v2',
      version: API_VERSION,
      description:
        'toncenter-compatible TON HTTP API v2 served from TON lite servers. Every method answers on REST (`GET` query string or `POST` JSON body) and JSON-RPC (`POST /api/v2/jsonRPC`). Success: `{ok: true, result, @extra}`; error: `{ok: false, error, code}` with HTTP status = code. Send an API key in `X-API-Key` or `api_key`.',
    },
    servers: [{ url: '/', description: 'this server' }],
    tags: [
      ...(Object.entries(CATEGORY_TEXT) as Array<[HandlerCategory, string]>).map(([name, description]) => ({ name, description })),
      { name: 'jsonrpc', description: 'JSON-RPC 2.0 over the same methods' },
      { name: 'service', description: 'Operations' },
      { name: 'v3', description: "toncenter's indexed v3 API (ton-index-go's routes) over the index: errors are `{\"error\": text}`" },
    ],
    // Keys are optional: without one a client gets the keyless rate limit.
    security: [{}, { APIKeyHeader: [] }, { APIKeyQuery: [] }],
    paths,
    components: {
      securitySchemes: {
        APIKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        APIKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
      },
      schemas: componentSchemas(table),
    },
  };
}
