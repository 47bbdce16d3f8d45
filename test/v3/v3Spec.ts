import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import { parse as parseYaml } from 'yaml';

/**
 * Validates v3 answers against toncenter's generated Swagger 2.0 file (1.2.6, in ../shared beside
 * the checkout). Two differences between that file and ton-index-go's running code are applied to
 * the schemas, by name, before validating:
 * - NULLABLE: swag marks no property nullable, while every Go pointer field marshals as `null`
 *   when unset (e.g. `in_msg` of a tick-tock, `source` of an external message);
 * - FINALITY_AS_STRING: the file types `finality` as the integer enum 0..2, while
 *   FinalityState.MarshalJSON writes its name (`pending`, `confirmed`, `finalized`);
 * - OPCODE_AS_HEX: the file types a message's `opcode` as an integer, while OpcodeType.MarshalJSON
 *   writes the string `0x%08x`;
 * - BYTES_AS_BASE64: the file types an order action's `body_raw` ([]byte) as an array, while
 *   encoding/json writes a []byte as a base64 string.
 */

export const V3_SPEC_PATH = path.resolve(__dirname, '..', '..', '..', 'shared', 'spec', 'v3', 'ton-api-v3.openapi.json');
export const V3_SPEC_PRESENT = existsSync(V3_SPEC_PATH);
/** The docs' OpenAPI 3.0 copy (1.2.4-rc): for the routes the 1.2.6 file lacks (`actions`, `decode`). */
export const V3_DOCS_SPEC_PATH = path.resolve(__dirname, '..', '..', '..', 'shared', 'spec', 'v3', 'toncenter-v3.yaml');
export const V3_DOCS_SPEC_PRESENT = existsSync(V3_DOCS_SPEC_PATH);

type Schema = Record<string, unknown>;

function nullable(schema: Schema): Schema {
  if (typeof schema['$ref'] === 'string') return { anyOf: [schema, { type: 'null' }] };
  if (typeof schema['type'] === 'string') return { ...relax(schema), type: [schema['type'], 'null'] };
  return relax(schema);
}

/** NULLABLE: every property (and array item / map value) may be null. */
function relax(schema: Schema): Schema {
  const out: Schema = { ...schema };
  delete out['example'];
  delete out['x-enum-varnames'];
  delete out['format'];
  if (out['properties']) {
    out['properties'] = Object.fromEntries(Object.entries(out['properties'] as Record<string, Schema>).map(([k, v]) => [k, nullable(v)]));
  }
  if (out['items']) out['items'] = nullable(out['items'] as Schema);
  if (out['additionalProperties'] && typeof out['additionalProperties'] === 'object') {
    out['additionalProperties'] = nullable(out['additionalProperties'] as Schema);
  }
  return out;
}

export interface V3SpecValidator {
  /** Validates a 200 answer of `route` (e.g. "/transactions"); returns ajv's errors or null. */
  check(route: string, body: unknown): unknown[] | null;
}

export function loadV3Spec(): V3SpecValidator {
  const spec = JSON.parse(readFileSync(V3_SPEC_PATH, 'utf8')) as {
    definitions: Record<string, Schema>;
    paths: Record<string, { get?: { responses: Record<string, { schema: Schema }> } }>;
  };
  const definitions = Object.fromEntries(Object.entries(spec.definitions).map(([k, v]) => [k, relax(v)]));
  // FINALITY_AS_STRING
  definitions['models.FinalityState'] = { type: 'string', enum: ['pending', 'confirmed', 'finalized'] };
  // OPCODE_AS_HEX
  const message = definitions['Message'] as { properties: Record<string, Schema> };
  message.properties['opcode'] = { type: ['string', 'null'], pattern: '^0x[0-9a-f]{8}$' };
  // BYTES_AS_BASE64
  const orderAction = definitions['models.OrderAction'] as { properties?: Record<string, Schema> } | undefined;
  if (orderAction?.properties) orderAction.properties['body_raw'] = { type: ['string', 'null'] };
  return validatorOf('v3', '#/definitions/', definitions, (route) => spec.paths[`/api/v3${route}`]?.get?.responses['200']?.schema);
}

/**
 * Validators of 200 answers by route: `definitions` registered under `id`, each route's answer
 * schema (from `schemaOf`) compiled once, its `$ref`s (`refPrefix` + name) pointed at them.
 */
function validatorOf(id: string, refPrefix: string, definitions: Record<string, Schema>, schemaOf: (route: string) => Schema | undefined): V3SpecValidator {
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? v.replace(refPrefix, `${id}#/definitions/`) : rewrite(v)]),
      );
    }
    return value;
  };
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addSchema({ $id: id, definitions: rewrite(definitions) as Schema });
  const validators = new Map<string, ValidateFunction>();
  return {
    check(route, body) {
      let validate = validators.get(route);
      if (!validate) {
        const schema = schemaOf(route);
        if (!schema) throw new Error(`the ${id} spec has no GET ${route}`);
        validate = ajv.compile(rewrite(schema) as Schema);
        validators.set(route, validate);
      }
      return validate(body) ? null : (validate.errors ?? []);
    },
  };
}

/**
 * The routes the 1.2.6 file lacks, against the docs' OpenAPI 3.0 copy, with NULLABLE applied as
 * above (the docs mark only some fields `nullable`; Go writes every unset pointer as null).
 */
export function loadV3DocsSpec(): V3SpecValidator {
  const doc = parseYaml(readFileSync(V3_DOCS_SPEC_PATH, 'utf8')) as {
    components: { schemas: Record<string, Schema> };
    paths: Record<string, { get?: { responses: Record<string, { content?: { 'application/json'?: { schema: Schema } } }> } }>;
  };
  const definitions = Object.fromEntries(Object.entries(doc.components.schemas).map(([k, v]) => [k, relax(v)]));
  return validatorOf('docs', '#/components/schemas/', definitions, (route) => doc.paths[`/api/v3${route}`]?.get?.responses['200']?.content?.['application/json']?.schema);
}
