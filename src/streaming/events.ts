import { expandActionTypes } from '../actions';
import { finalityRank, type Finality, type Subscription } from './subscription';

/**
 * The events the streaming API delivers, as built once per source block (builder.ts) and then
 * cut to each client's subscription (`renderFor`, toncenter's AdjustForClient). The parts that
 * are the same for every client (a transaction, a state, a trace tree) are serialized once, when
 * the event is built; a client's payload is assembled from those strings.
 */

/** One transaction of a `transactions` event, serialized as ton-index-go's models.Transaction. */
export interface TransactionItem {
  /** Raw upper-case address of the account. */
  readonly account: string;
  /** Addresses an address book entry is given for: the account, the in message's source, out messages' destinations. */
  readonly addresses: readonly string[];
  readonly json: string;
}

/** raw address -> serialized models.AddressBookRow; absent when no address book could be built. */
export type AddressBookJson = ReadonlyMap<string, string>;

/** raw address -> serialized models.AddressMetadata (tokens only); absent when not looked up. */
export type MetadataJson = ReadonlyMap<string, string>;

export interface TransactionsEvent {
  readonly type: 'transactions';
  readonly finality: Finality;
  readonly traceExternalHashNorm: string;
  /** Descending lt, as toncenter sends them. */
  readonly transactions: readonly TransactionItem[];
  readonly addressBook?: AddressBookJson;
  readonly metadata?: MetadataJson;
}

export interface AccountStateChangeEvent {
  readonly type: 'account_state_change';
  readonly finality: Finality;
  readonly account: string;
  /** models.AccountState without code and data BoCs. */
  readonly stateJson: string;
}

export interface TraceEvent {
  readonly type: 'trace';
  readonly finality: Finality;
  readonly traceExternalHashNorm: string;
  /** models.TraceNode of the root. */
  readonly traceJson: string;
  /** Object of transaction hash -> models.Transaction. */
  readonly transactionsJson: string;
  readonly addressBook?: AddressBookJson;
  readonly metadata?: MetadataJson;
}

/** One action of an `actions` event, serialized as ton-index-go's models.Action. */
export interface ActionItem {
  readonly type: string;
  /** Raw upper-case addresses the action involves (a client subscribed to one of them gets it). */
  readonly accounts: readonly string[];
  /** The typed actions this one is a step of (a client accepting one of them is not sent it). */
  readonly ancestorTypes?: readonly string[];
  readonly json: string;
}

export interface ActionsEvent {
  readonly type: 'actions';
  readonly finality: Finality;
  readonly traceExternalHashNorm: string;
  readonly actions: readonly ActionItem[];
  readonly addressBook?: AddressBookJson;
  readonly metadata?: MetadataJson;
}

/** A jetton wallet's new state (toncenter's JettonsNotification): to subscribers of the wallet or of its owner. */
export interface JettonsChangeEvent {
  readonly type: 'jettons_change';
  readonly finality: Finality;
  /** Raw upper-case addresses of the wallet, its owner and its jetton master. */
  readonly wallet: string;
  readonly owner: string;
  readonly jetton: string;
  /** models.JettonWallet (v3's /jetton/wallets item). */
  readonly jettonJson: string;
  readonly addressBook?: AddressBookJson;
  readonly metadata?: MetadataJson;
}

export interface TraceInvalidatedEvent {
  readonly type: 'trace_invalidated';
  readonly traceExternalHashNorm: string;
}

export type StreamEvent = TransactionsEvent | AccountStateChangeEvent | JettonsChangeEvent | ActionsEvent | TraceEvent | TraceInvalidatedEvent;

/** About the memory an event holds (its serialized parts; strings are counted by length), for the resume window's bound. */
export function eventBytes(event: StreamEvent): number {
  const book = (b: ReadonlyMap<string, string> | undefined) => {
    let n = 0;
    if (b) for (const [address, entry] of b) n += address.length + entry.length;
    return n;
  };
  switch (event.type) {
    case 'transactions':
      return 64 + book(event.addressBook) + book(event.metadata) + event.transactions.reduce((n, t) => n + t.json.length + t.addresses.reduce((m, a) => m + a.length, 0), 0);
    case 'account_state_change':
      return 64 + event.account.length + event.stateJson.length;
    case 'jettons_change':
      return 64 + book(event.addressBook) + book(event.metadata) + event.wallet.length + event.owner.length + event.jetton.length + event.jettonJson.length;
    case 'actions':
      return 64 + book(event.addressBook) + book(event.metadata) + event.actions.reduce((n, a) => n + a.json.length + a.accounts.reduce((m, x) => m + x.length, 0), 0);
    case 'trace':
      return 64 + book(event.addressBook) + book(event.metadata) + event.traceJson.length + event.transactionsJson.length;
    case 'trace_invalidated':
      return 64 + event.traceExternalHashNorm.length;
  }
}

/** supported_action_types lists expanded to the types they accept (clients share a few lists). */
const acceptedTypes = new Map<string, ReadonlySet<string>>();

function acceptedActionTypes(supported: readonly string[]): ReadonlySet<string> {
  const key = supported.join(',');
  let accepted = acceptedTypes.get(key);
  if (!accepted) {
    accepted = expandActionTypes(supported);
    // Bounded: a client may name any strings; past the bound lists are expanded per event.
    if (acceptedTypes.size < 1024) acceptedTypes.set(key, accepted);
  }
  return accepted;
}

/** What a connection remembers between events: the traces it got events of (for trace_invalidated). */
export interface DeliveryMemory {
  /** Traces whose data this client received and that a rewind could still invalidate. */
  readonly deliveredTraces: Set<string>;
}

/** Traces remembered per connection for invalidation; the oldest are forgotten first. */
const REMEMBERED_TRACES = 1024;

function remember(memory: DeliveryMemory, trace: string): void {
  if (memory.deliveredTraces.has(trace)) memory.deliveredTraces.delete(trace);
  memory.deliveredTraces.add(trace);
  if (memory.deliveredTraces.size > REMEMBERED_TRACES) {
    const oldest = memory.deliveredTraces.values().next().value as string;
    memory.deliveredTraces.delete(oldest);
  }
}

/**
 * The `address_book` and `metadata` of an event for one client: the entries of the addresses it is
 * sent (toncenter's AdjustForClient), each part only when the client asked for it.
 */
function annotationsPart(
  event: { readonly addressBook?: AddressBookJson; readonly metadata?: MetadataJson },
  subscription: Subscription,
  addresses: readonly string[] | 'all',
): string {
  return (
    mapPart('address_book', event.addressBook, subscription.includeAddressBook, addresses) +
    mapPart('metadata', event.metadata, subscription.includeMetadata, addresses)
  );
}

function mapPart(key: string, book: ReadonlyMap<string, string> | undefined, include: boolean, addresses: readonly string[] | 'all'): string {
  if (!include || !book) return '';
  const entries: string[] = [];
  const seen = new Set<string>();
  for (const address of addresses === 'all' ? book.keys() : addresses) {
    if (seen.has(address)) continue;
    seen.add(address);
    const entry = book.get(address);
    if (entry !== undefined) entries.push(`${JSON.stringify(address)}:${entry}`);
  }
  return `,"${key}":{${entries.join(',')}}`;
}

function interested(subscription: Subscription, type: 'transactions' | 'account_state_change', account: string): boolean {
  return subscription.types.has(type) && subscription.addresses.has(account);
}

/**
 * The payload of `event` for a client with `subscription` (JSON text), or undefined when the
 * client gets nothing of it: toncenter's AdjustForClient of each notification type.
 */
export function renderFor(event: StreamEvent, subscription: Subscription, memory: DeliveryMemory): string | undefined {
  switch (event.type) {
    case 'transactions': {
      if (finalityRank(event.finality) < finalityRank(subscription.minFinality)) return undefined;
      if (!subscription.types.has('transactions')) return undefined;
      const chosen = event.transactions.filter((tx) => interested(subscription, 'transactions', tx.account));
      if (chosen.length === 0) return undefined;
      remember(memory, event.traceExternalHashNorm);
      const book = annotationsPart(event, subscription, chosen.flatMap((tx) => tx.addresses));
      return (
        `{"type":"transactions","finality":"${event.finality}","trace_external_hash_norm":${JSON.stringify(event.traceExternalHashNorm)},` +
        `"transactions":[${chosen.map((tx) => tx.json).join(',')}]${book}}`
      );
    }
    case 'account_state_change': {
      if (finalityRank(event.finality) < finalityRank(subscription.minFinality)) return undefined;
      if (!interested(subscription, 'account_state_change', event.account)) return undefined;
      return `{"type":"account_state_change","finality":"${event.finality}","account":${JSON.stringify(event.account)},"state":${event.stateJson}}`;
    }
    case 'jettons_change': {
      // JettonsNotification.AdjustForClient: a subscriber of the wallet or of its owner.
      if (finalityRank(event.finality) < finalityRank(subscription.minFinality)) return undefined;
      if (!subscription.types.has('jettons_change')) return undefined;
      if (!subscription.addresses.has(event.wallet) && !subscription.addresses.has(event.owner)) return undefined;
      const book = annotationsPart(event, subscription, [event.wallet, event.owner, event.jetton]);
      return `{"type":"jettons_change","finality":"${event.finality}","jetton":${event.jettonJson}${book}}`;
    }
    case 'actions': {
      // ActionsNotification.AdjustForClient: actions of a subscribed account, of a requested type
      // (action_types, when given) and of a type the client's supported_action_types accept.
      if (finalityRank(event.finality) < finalityRank(subscription.minFinality)) return undefined;
      if (!subscription.types.has('actions')) return undefined;
      const accepted = acceptedActionTypes(subscription.supportedActionTypes);
      const chosen = event.actions.filter(
        (action) =>
          action.accounts.some((account) => subscription.addresses.has(account)) &&
          (subscription.actionTypes.length === 0 || subscription.actionTypes.includes(action.type)) &&
          accepted.has(action.type) &&
          !(action.ancestorTypes ?? []).some((t) => accepted.has(t)),
      );
      if (chosen.length === 0) return undefined;
      remember(memory, event.traceExternalHashNorm);
      const book = annotationsPart(event, subscription, chosen.flatMap((action) => action.accounts));
      return (
        `{"type":"actions","finality":"${event.finality}","trace_external_hash_norm":${JSON.stringify(event.traceExternalHashNorm)},` +
        `"actions":[${chosen.map((action) => action.json).join(',')}]${book}}`
      );
    }
    case 'trace': {
      if (finalityRank(event.finality) < finalityRank(subscription.minFinality)) return undefined;
      if (!subscription.types.has('trace') || !subscription.traces.has(event.traceExternalHashNorm)) return undefined;
      remember(memory, event.traceExternalHashNorm);
      const book = annotationsPart(event, subscription, 'all');
      return (
        `{"type":"trace","finality":"${event.finality}","trace_external_hash_norm":${JSON.stringify(event.traceExternalHashNorm)},` +
        `"trace":${event.traceJson},"transactions":${event.transactionsJson}${book}}`
      );
    }
    case 'trace_invalidated': {
      // Only to a client that received data of the trace (toncenter's TracesForPotentialInvalidation).
      if (!memory.deliveredTraces.delete(event.traceExternalHashNorm)) return undefined;
      return `{"type":"trace_invalidated","trace_external_hash_norm":${JSON.stringify(event.traceExternalHashNorm)}}`;
    }
  }
}

/** The addresses an event concerns (for address book lookups). */
export function eventAddresses(event: StreamEvent): string[] {
  switch (event.type) {
    case 'transactions':
      return event.transactions.flatMap((tx) => tx.addresses);
    case 'account_state_change':
      return [event.account];
    case 'jettons_change':
      return [event.wallet, event.owner, event.jetton];
    case 'actions':
      return event.actions.flatMap((action) => action.accounts);
    default:
      return [];
  }
}
