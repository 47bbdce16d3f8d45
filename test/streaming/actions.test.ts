import type { StreamEvent } from '../../src/streaming';
import { ALICE, BOB, CAROL, openSse, startStreamingServer, until, type StreamingServer } from './support';

/** An action of `type` between `accounts`, its JSON a recognisable stub. */
function action(type: string, accounts: string[], id: string) {
  return { type, accounts, json: JSON.stringify({ action_id: id, type, accounts }) };
}

function actionsEvent(trace: string, actions: ReturnType<typeof action>[]): StreamEvent {
  return { type: 'actions', finality: 'finalized', traceExternalHashNorm: trace, actions };
}

/**
 * `actions` events cut per client as ton-streaming-go's ActionsNotification.AdjustForClient: the
 * actions of a subscribed account only, of a type in `action_types` when given, of a type the
 * client's `supported_action_types` (or X-Actions-Version) accept; none left, no event.
 */
describe('actions events per subscription', () => {
  let server: StreamingServer;
  beforeAll(async () => {
    server = await startStreamingServer();
  });
  afterAll(async () => {
    await server.close();
  });

  test('by account, by action_types, by supported_action_types and X-Actions-Version', async () => {
    const alice = openSse(server.url, { types: ['actions'], addresses: [ALICE] });
    const aliceJettons = openSse(server.url, { types: ['actions'], addresses: [ALICE], action_types: ['jetton_transfer'] });
    const v1Only = openSse(server.url, { types: ['actions'], addresses: [ALICE], supported_action_types: ['v1'] });
    const v1Header = openSse(server.url, { types: ['actions'], addresses: [ALICE] }, { 'X-Actions-Version': 'v1' });
    const carol = openSse(server.url, { types: ['actions'], addresses: [CAROL] });
    const aliceTransactions = openSse(server.url, { types: ['transactions'], addresses: [ALICE] });
    const all = [alice, aliceJettons, v1Only, v1Header, carol, aliceTransactions];
    await until(() => all.every((c) => c.connected() !== undefined), 'connected');

    server.source.emit([
      actionsEvent('trace-1', [
        action('ton_transfer', [ALICE, BOB], 'a1'),
        action('jetton_transfer', [BOB, ALICE], 'a2'),
        // A v2 type: not among v1's.
        action('multisig_approve', [ALICE], 'a3'),
        action('ton_transfer', [BOB], 'a4'),
      ]),
    ]);
    server.source.emit([actionsEvent('trace-2', [action('ton_transfer', [CAROL], 'c1')])]);
    await until(() => alice.events.length === 1 && carol.events.length === 1 && v1Header.events.length === 1, 'events');
    await until(() => aliceJettons.events.length === 1 && v1Only.events.length === 1, 'filtered events');
    const ids = (c: (typeof all)[number]) => c.events.map((e) => (e.data['actions'] as { action_id: string }[]).map((a) => a.action_id));
    expect(alice.events[0]!.id).toBe('1:0');
    expect(alice.events[0]!.data).toMatchObject({ type: 'actions', finality: 'finalized', trace_external_hash_norm: 'trace-1' });
    expect(ids(alice)).toEqual([['a1', 'a2', 'a3']]);
    expect(ids(aliceJettons)).toEqual([['a2']]);
    expect(ids(v1Only)).toEqual([['a1', 'a2']]);
    expect(ids(v1Header)).toEqual([['a1', 'a2']]);
    expect(ids(carol)).toEqual([['c1']]);
    expect(carol.events[0]!.id).toBe('2:0');
    expect(aliceTransactions.events).toEqual([]);
    for (const c of all) c.source.close();
  });
});
