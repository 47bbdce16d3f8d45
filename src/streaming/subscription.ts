import { parseAddress, parseHash256, toRawForm } from '../params';

/**
 * Subscriptions of toncenter's Streaming API v2 (ton-streaming-go/v2/server.go): the fields, the
 * order of its checks and its error texts, read from the JSON the client sent. Pure functions; the
 * transports (sse.ts, ws.ts) turn a SubscriptionError into their own answer.
 */

/** Event kinds a client may subscribe to (trace_invalidated is delivered, never subscribed). */
export const SUBSCRIBABLE_TYPES = ['transactions', 'actions', 'trace', 'account_state_change', 'jettons_change'] as const;
export type SubscribableType = (typeof SUBSCRIBABLE_TYPES)[number];
export type EventType = SubscribableType | 'trace_invalidated';

export const FINALITIES = ['pending', 'confirmed', 'finalized'] as const;
export type Finality = (typeof FINALITIES)[number];

/** Rank for the `min_finality` comparison (toncenter's FinalityState values). */
export function finalityRank(finality: Finality): number {
  return FINALITIES.indexOf(finality);
}

/** Our bounds on one subscription, before any work on its contents (422 / an error frame above them). */
export const SUBSCRIPTION_BOUNDS = {
  addresses: 1024,
  traceExternalHashNorms: 1024,
  /** action_types and supported_action_types: toncenter's action type list has ~60 names. */
  actionTypes: 256,
  /** Length of one string element (an address is at most 78 characters). */
  stringLength: 256,
} as const;

export interface Subscription {
  /** Raw upper-case addresses (`0:ABCD…`), as the index stores them. */
  readonly addresses: ReadonlySet<string>;
  /** Normalized external message hashes in standard base64 (the form events carry). */
  readonly traces: ReadonlySet<string>;
  readonly types: ReadonlySet<SubscribableType>;
  readonly minFinality: Finality;
  readonly actionTypes: readonly string[];
  readonly supportedActionTypes: readonly string[];
  readonly includeAddressBook: boolean;
  readonly includeMetadata: boolean;
}

/** A client mistake in a subscription; `status` is what the SSE endpoint answers (toncenter: 400). */
export class SubscriptionError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 422 = 400,
  ) {
    super(message);
    this.name = 'SubscriptionError';
  }
}

type GoKind = 'string' | 'number' | 'bool' | 'array' | 'object';

function goKind(value: unknown): GoKind {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number' || typeof value === 'bigint') return 'number';
  if (typeof value === 'string') return 'string';
  return 'object';
}

/** The Go type of each field (for encoding/json's error text) and what it holds. */
const FIELD_TYPES: Record<string, { go: string; element?: 'string'; scalar?: 'string' | 'bool' | 'finality' }> = {
  id: { go: 'string', scalar: 'string' },
  addresses: { go: '[]string', element: 'string' },
  trace_external_hash_norms: { go: '[]string', element: 'string' },
  types: { go: '[]v2.EventType', element: 'string' },
  min_finality: { go: 'models.FinalityState', scalar: 'finality' },
  action_types: { go: '[]string', element: 'string' },
  supported_action_types: { go: '[]string', element: 'string' },
  include_address_book: { go: 'bool', scalar: 'bool' },
  include_metadata: { go: 'bool', scalar: 'bool' },
  // Ours (resume over WebSocket): the id of the last event the client has.
  from: { go: 'string', scalar: 'string' },
};

/** The fields of a request as read, before the rules (absent and null read as undefined). */
export interface RawSubscription {
  readonly id?: string;
  readonly addresses?: readonly string[];
  readonly traceExternalHashNorms?: readonly string[];
  readonly types?: readonly string[];
  readonly minFinality?: Finality;
  readonly actionTypes?: readonly string[];
  readonly supportedActionTypes?: readonly string[];
  readonly includeAddressBook?: boolean;
  readonly includeMetadata?: boolean;
  readonly from?: string;
}

const LIST_BOUND: Record<string, number> = {
  addresses: SUBSCRIPTION_BOUNDS.addresses,
  trace_external_hash_norms: SUBSCRIPTION_BOUNDS.traceExternalHashNorms,
  types: 16,
  action_types: SUBSCRIPTION_BOUNDS.actionTypes,
  supported_action_types: SUBSCRIPTION_BOUNDS.actionTypes,
};

/**
 * Reads the fields of a request body as Go's encoding/json reads toncenter's struct: unknown
 * fields ignored, null as absent, a wrong JSON type refused with encoding/json's text prefixed by
 * `prefix` (`invalid subscription request`), an unknown finality with FinalityState's text.
 * Lists longer than our bounds are refused first, with 422, before any element is looked at.
 */
export function readSubscriptionFields(body: unknown, structName: string, prefix: string): RawSubscription {
  if (body === undefined) throw new SubscriptionError(`${prefix}: unexpected end of JSON input`);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new SubscriptionError(`${prefix}: json: cannot unmarshal ${goKind(body)} into Go value of type v2.${structName}`);
  }
  const fields = body as Record<string, unknown>;
  for (const [name, bound] of Object.entries(LIST_BOUND)) {
    const value = fields[name];
    if (Array.isArray(value) && value.length > bound) {
      throw new SubscriptionError(`too many ${name}: ${value.length} (at most ${bound} in one subscription)`, 422);
    }
  }
  const out: Record<string, unknown> = {};
  for (const [name, type] of Object.entries(FIELD_TYPES)) {
    const value = fields[name];
    if (value === undefined || value === null) continue;
    const where = `Go struct field ${structName}.${name}`;
    if (type.element) {
      if (!Array.isArray(value)) throw new SubscriptionError(`${prefix}: json: cannot unmarshal ${goKind(value)} into ${where} of type ${type.go}`);
      const list: string[] = [];
      for (const element of value) {
        if (element === null) {
          list.push('');
          continue;
        }
        if (typeof element !== 'string') {
          throw new SubscriptionError(`${prefix}: json: cannot unmarshal ${goKind(element)} into ${where} of type ${type.go.slice(2)}`);
        }
        if (element.length > SUBSCRIPTION_BOUNDS.stringLength) {
          throw new SubscriptionError(`${name} contains a value longer than ${SUBSCRIPTION_BOUNDS.stringLength} characters`, 422);
        }
        list.push(element);
      }
      out[name] = list;
    } else if (type.scalar === 'bool') {
      if (typeof value !== 'boolean') throw new SubscriptionError(`${prefix}: json: cannot unmarshal ${goKind(value)} into ${where} of type bool`);
      out[name] = value;
    } else if (type.scalar === 'finality') {
      if (typeof value !== 'string') throw new SubscriptionError(`${prefix}: json: cannot unmarshal ${goKind(value)} into Go value of type string`);
      if (!(FINALITIES as readonly string[]).includes(value)) throw new SubscriptionError(`${prefix}: unknown finality state: ${value.slice(0, 64)}`);
      out[name] = value;
    } else {
      if (typeof value !== 'string') throw new SubscriptionError(`${prefix}: json: cannot unmarshal ${goKind(value)} into ${where} of type string`);
      if (value.length > SUBSCRIPTION_BOUNDS.stringLength) throw new SubscriptionError(`${name} is longer than ${SUBSCRIPTION_BOUNDS.stringLength} characters`, 422);
      out[name] = value;
    }
  }
  return {
    ...(out['id'] !== undefined ? { id: out['id'] as string } : {}),
    ...(out['addresses'] !== undefined ? { addresses: out['addresses'] as string[] } : {}),
    ...(out['trace_external_hash_norms'] !== undefined ? { traceExternalHashNorms: out['trace_external_hash_norms'] as string[] } : {}),
    ...(out['types'] !== undefined ? { types: out['types'] as string[] } : {}),
    ...(out['min_finality'] !== undefined ? { minFinality: out['min_finality'] as Finality } : {}),
    ...(out['action_types'] !== undefined ? { actionTypes: out['action_types'] as string[] } : {}),
    ...(out['supported_action_types'] !== undefined ? { supportedActionTypes: out['supported_action_types'] as string[] } : {}),
    ...(out['include_address_book'] !== undefined ? { includeAddressBook: out['include_address_book'] as boolean } : {}),
    ...(out['include_metadata'] !== undefined ? { includeMetadata: out['include_metadata'] as boolean } : {}),
    ...(out['from'] !== undefined ? { from: out['from'] as string } : {}),
  };
}

/** convertAddress: any address form toncenter takes, as the raw upper-case form; its text otherwise. */
export function convertAddress(input: string): string {
  const parsed = parseAddress(input);
  if (!parsed) throw new SubscriptionError(`invalid address: ${input}`);
  return toRawForm(parsed.workchain, parsed.hash, true);
}

function uniqueAddresses(addresses: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const address of addresses) seen.add(convertAddress(address));
  return [...seen];
}

/**
 * validateTraceExternalHashNorms: trimmed, non-empty, deduplicated. toncenter compares the text as
 * sent; we also accept the hash in hex or base64url and turn it into the standard base64 events carry.
 */
export function validateTraceExternalHashNorms(traces: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const raw of traces) {
    const trace = raw.trim();
    if (trace === '') throw new SubscriptionError('trace_external_hash_norms contains empty value');
    const hash = parseHash256(trace);
    seen.add(hash ? hash.toString('base64') : trace);
  }
  return [...seen];
}

function checkTypes(types: readonly string[]): SubscribableType[] {
  for (const type of types) {
    if (!(SUBSCRIBABLE_TYPES as readonly string[]).includes(type)) throw new SubscriptionError(`invalid event type: ${type}`);
  }
  return [...new Set(types as SubscribableType[])];
}

interface CheckedTargets {
  readonly addresses: string[];
  readonly traces: string[];
  readonly types: SubscribableType[];
}

/** The shared rules of SSE's ValidateSSERequest and WebSocket's subscribe, in their order. */
function checkTargets(raw: RawSubscription, addressesRequired: string): CheckedTargets {
  const types = checkTypes(raw.types ?? []);
  const addresses = uniqueAddresses(raw.addresses ?? []);
  const traces = validateTraceExternalHashNorms(raw.traceExternalHashNorms ?? []);
  const hasTrace = types.includes('trace');
  const hasAddressTypes = types.some((type) => type !== 'trace');
  if (traces.length > 0 && !hasTrace) throw new SubscriptionError('trace_external_hash_norms requires type "trace"');
  if (hasTrace && traces.length === 0) throw new SubscriptionError('trace_external_hash_norms are required for trace subscription');
  if (hasAddressTypes && addresses.length === 0) throw new SubscriptionError(addressesRequired);
  return { addresses, traces, types };
}

/** ExpandActionTypeShortcuts needs the action classifier's version table; until actions exist, as given. */
function supportedActionTypes(given: readonly string[] | undefined, header: string | undefined): string[] {
  if (given && given.length > 0) return [...given];
  if (header) return [header];
  return ['latest'];
}

/** `POST /api/streaming/v2/sse`: the whole subscription from the body (SSERequest). */
export function parseSseSubscription(body: unknown, actionsVersionHeader?: string): { id: string | undefined; subscription: Subscription } {
  const raw = readSubscriptionFields(body, 'SSERequest', 'invalid subscription request');
  if (!raw.types || raw.types.length === 0) throw new SubscriptionError('types are required for subscription');
  const targets = checkTargets(raw, 'addresses are required for subscription');
  return {
    id: raw.id,
    subscription: {
      addresses: new Set(targets.addresses),
      traces: new Set(targets.traces),
      types: new Set(targets.types),
      minFinality: raw.minFinality ?? 'finalized',
      actionTypes: raw.actionTypes ?? [],
      supportedActionTypes: supportedActionTypes(raw.supportedActionTypes, actionsVersionHeader),
      includeAddressBook: raw.includeAddressBook ?? false,
      includeMetadata: raw.includeMetadata ?? false,
    },
  };
}

/** A WebSocket connection's subscription before its first `subscribe`: nothing. */
export function emptySubscription(actionsVersionHeader?: string): Subscription {
  return {
    addresses: new Set(),
    traces: new Set(),
    types: new Set(),
    minFinality: 'finalized',
    actionTypes: [],
    supportedActionTypes: supportedActionTypes(undefined, actionsVersionHeader ?? 'latest'),
    includeAddressBook: false,
    includeMetadata: false,
  };
}

/**
 * WebSocket `subscribe`: replaces addresses, traces and types; min_finality, the include flags and
 * the action type lists keep their previous values when not given (as toncenter's handler does).
 */
export function applySubscribe(previous: Subscription, raw: RawSubscription): Subscription {
  if (!raw.types || raw.types.length === 0) throw new SubscriptionError('types are required');
  const targets = checkTargets(raw, 'addresses are required');
  return {
    addresses: new Set(targets.addresses),
    traces: new Set(targets.traces),
    types: new Set(targets.types),
    minFinality: raw.minFinality ?? previous.minFinality,
    actionTypes: raw.actionTypes && raw.actionTypes.length > 0 ? raw.actionTypes : previous.actionTypes,
    supportedActionTypes:
      raw.supportedActionTypes && raw.supportedActionTypes.length > 0 ? raw.supportedActionTypes : previous.supportedActionTypes,
    includeAddressBook: raw.includeAddressBook ?? previous.includeAddressBook,
    includeMetadata: raw.includeMetadata ?? previous.includeMetadata,
  };
}

/** WebSocket `unsubscribe`: removes addresses and traces; types and the rest stay. */
export function applyUnsubscribe(previous: Subscription, raw: RawSubscription): Subscription {
  const addresses = raw.addresses ?? [];
  const tracesGiven = raw.traceExternalHashNorms ?? [];
  if (addresses.length === 0 && tracesGiven.length === 0) throw new SubscriptionError('addresses or trace_external_hash_norms are required');
  const removedAddresses = addresses.map(convertAddress);
  const removedTraces = validateTraceExternalHashNorms(tracesGiven);
  const nextAddresses = new Set(previous.addresses);
  for (const address of removedAddresses) nextAddresses.delete(address);
  const nextTraces = new Set(previous.traces);
  for (const trace of removedTraces) nextTraces.delete(trace);
  return { ...previous, addresses: nextAddresses, traces: nextTraces };
}
