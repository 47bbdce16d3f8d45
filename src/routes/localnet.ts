import { Router, type NextFunction, type Request, type Response } from 'express';
import { invalidText, MethodNotAllowedError, NotFoundError, ValidationError } from '../errors';
import { createApiIntake } from '../intake';
import { ControlRefusedError, type LocalnetControlApi, MAX_CHAIN_TIME } from '../localnet';
import { ParamError, param, quoteInput } from '../params';
import type { AppServices } from './services';
import { sendError } from './http';

/**
 * `/localnet/*`: the embedded chain's developer controls (mounted only with `--network local`
 * and no `--liteservers`). Same intake as the API (key and rate limit before the body, bounded
 * body, exact JSON); bodies are JSON objects whose fields are all known (an unknown one is a
 * 422, so a typo such as `ammount` never silently does something else); answers are the v2
 * envelope.
 */

type Body = Record<string, unknown>;

/** The body as an object holding only `allowed` keys (absent body = `{}`). */
function bodyOf(req: Request, allowed: readonly string[]): Body {
  const body: unknown = req.body ?? {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError('failed to parse post request: the body must be a JSON object');
  }
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    const expected = allowed.length > 0 ? `: expected ${allowed.join(', ')}` : ': this route takes no fields';
    throw new ValidationError(`failed to parse post request: unknown field ${quoteInput(unknown[0], 64)}${expected}`);
  }
  return body as Body;
}

/** One field through a parameter type of src/params; missing or malformed is a 422 naming it. */
function field<T>(body: Body, name: string, parse: (name: string, value: unknown) => T): T {
  const value = body[name];
  if (value === undefined || value === null) throw new ValidationError(`failed to parse post request: ${name} is required`);
  try {
    return parse(name, value);
  } catch (err) {
    if (err instanceof ParamError) throw new ValidationError(`failed to parse post request: ${err.message}`);
    throw err;
  }
}

const parseAddress = param.address().parse;
const parseInt64 = param.int64().parse;

/** Seconds for the clock: a JSON integer or decimal string in [0, MAX_CHAIN_TIME]. */
function parseSeconds(name: string, value: unknown): number {
  const parsed = parseInt64(name, value);
  if (parsed < 0n || parsed > BigInt(MAX_CHAIN_TIME)) throw new ParamError(`${name} must be between 0 and ${MAX_CHAIN_TIME} seconds`);
  return Number(parsed);
}

function parseSnapshotId(name: string, value: unknown): string {
  if (typeof value !== 'string' || !/^[0-9]{1,16}$/.test(value)) throw new ParamError(`failed to parse ${name}: ${quoteInput(value, 40)}`);
  return value;
}

/**
 * The chain's refusal of a control as the API's error: a value it cannot take is a 422 worded as
 * the API's other semantic checks, something it does not hold a 404.
 */
function controlErrorOf(err: unknown): unknown {
  if (!(err instanceof ControlRefusedError)) return err;
  return err.reason === 'notFound' ? new NotFoundError(err.message) : new ValidationError(invalidText(err.message));
}

type Route = (controls: LocalnetControlApi, req: Request, services: AppServices) => Promise<unknown> | unknown;

/** After the chain moved (a new block, or back to a snapshot), the API's next read must see it. */
async function syncHeads(services: AppServices): Promise<void> {
  await services.lite?.refreshHeads?.(Date.now() + services.config.requestTimeout);
}

const fund: Route = async (controls, req, services) => {
  const body = bodyOf(req, ['address', 'amount']);
  const address = field(body, 'address', parseAddress).address;
  const amount = field(body, 'amount', parseInt64);
  const result = await controls.fund(address, amount);
  await syncHeads(services);
  return result;
};

const mine: Route = async (controls, req, services) => {
  bodyOf(req, []);
  const result = await controls.mine();
  await syncHeads(services);
  return result;
};

const time: Route = (controls, req) => {
  const body = bodyOf(req, ['increase', 'set']);
  if ((body['increase'] === undefined) === (body['set'] === undefined)) {
    throw new ValidationError('failed to parse post request: give exactly one of increase (seconds) and set (unix time)');
  }
  return body['increase'] !== undefined
    ? controls.moveClock({ increase: field(body, 'increase', parseSeconds) })
    : controls.moveClock({ set: field(body, 'set', parseSeconds) });
};

const snapshot: Route = (controls, req) => {
  bodyOf(req, []);
  return controls.snapshot();
};

const restore: Route = async (controls, req, services) => {
  const id = field(bodyOf(req, ['id']), 'id', parseSnapshotId);
  const result = await controls.restore(id);
  services.lite?.chainRewound?.(result.seqno);
  // The index thread proves heads with a pool of its own.
  services.index?.chainRewound?.(result.seqno);
  await syncHeads(services);
  return result;
};

const status: Route = (controls) => controls.status();

export function createLocalnetRouter(services: AppServices, controls: LocalnetControlApi): Router {
  const router = Router();
  router.use(...createApiIntake(services, { isJsonRpc: () => false }));
  const serve = (route: Route) => async (req: Request, res: Response) => {
    try {
      res.status(200).json({ ok: true, result: await route(controls, req, services) });
    } catch (err) {
      sendError(req, res, controlErrorOf(err), services);
    }
  };
  const wrongVerb = (req: Request, res: Response) => sendError(req, res, new MethodNotAllowedError(req.method), services);
  // Served as is (not in the envelope): lite clients and blueprint load it as a global config file.
  router.get('/global.config.json', (_req: Request, res: Response) => {
    res.type('application/json').send(`${controls.globalConfigJson}\n`);
  });
  router.all('/global.config.json', wrongVerb);
  router.get('/status', serve(status));
  router.all('/status', wrongVerb);
  const posts: [string, Route][] = [
    ['/fund', fund],
    ['/mine', mine],
    ['/time', time],
    ['/snapshot', snapshot],
    ['/restore', restore],
  ];
  for (const [path, route] of posts) {
    router.post(path, serve(route));
    router.all(path, wrongVerb);
  }
  router.use((req: Request, res: Response) => sendError(req, res, new NotFoundError(), services));
  router.use((err: unknown, req: Request, res: Response, _next: NextFunction) => sendError(req, res, err, services));
  return router;
}
