import type { V3SpecValidator } from '../v3/v3Spec';

type Json = Record<string, unknown>;

export interface V3Caller {
  /** GET /api/v3<path>: status and parsed body. */
  get(path: string): Promise<{ status: number; body: Json }>;
  /** A 200, validated against the spec of its route (when given); else it throws with the answer. */
  ok(path: string): Promise<Json>;
}

/**
 * v3 calls of the end-to-end tests. `spec` is the 1.2.6 file's validator, `docsSpec` the docs
 * copy's, used for `/actions`, which the 1.2.6 file lacks. EVENTS_ALIAS: `/events` is in neither
 * file; it is the `traces` answer under the key `events`, validated as `/traces`.
 */
export function v3Caller(baseUrl: string, spec?: V3SpecValidator, docsSpec?: V3SpecValidator): V3Caller {
  const get = async (path: string) => {
    const res = await fetch(`${baseUrl}/api/v3${path}`);
    return { status: res.status, body: (await res.json()) as Json };
  };
  return {
    get,
    async ok(path) {
      const res = await get(path);
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
      const route = path.split('?')[0]!;
      let errors: unknown[] | null | undefined;
      if (route === '/actions') errors = docsSpec?.check(route, res.body);
      else if (route === '/events') {
        const { events, ...rest } = res.body;
        errors = spec?.check('/traces', { ...rest, traces: events });
      } else errors = spec?.check(route, res.body);
      if (errors) throw new Error(`${path} does not match the spec: ${JSON.stringify(errors.slice(0, 3))}`);
      return res.body;
    },
  };
}
