import { spawnSync } from 'node:child_process';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Validates a document against the OpenAPI 3.1 meta-schema with @seriousme/openapi-schema-validator.
 * The package is ESM-only and jest runs CommonJS, so it runs in a child node process.
 */
export function validateOpenApi(document: unknown): { valid: boolean; version: string; errors: unknown } {
  const script = `
    import { Validator } from '@seriousme/openapi-schema-validator';
    let text = '';
    for await (const chunk of process.stdin) text += chunk;
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(text));
    process.stdout.write(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? null }));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    input: JSON.stringify(document),
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`validator failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as { valid: boolean; version: string; errors: unknown };
}

/** ajv validators of the document's own component schemas, by `$ref`. */
export function resultValidators(document: { components: { schemas: Record<string, unknown> } }): (ref: string) => ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema(
    { $id: 'https://ton-http-bridge.local/openapi.json', components: document.components },
    'https://ton-http-bridge.local/openapi.json',
  );
  const cache = new Map<string, ValidateFunction>();
  return (ref: string) => {
    let validate = cache.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: `https://ton-http-bridge.local/openapi.json${ref}` });
      cache.set(ref, validate);
    }
    return validate;
  };
}
