import { existsSync, readFileSync } from 'fs';
import path from 'path';
import {
  LITE_FUNCTIONS,
  LITE_QUERY_KINDS,
  TL_IDS,
  TlConstructorName,
  adnlMessageAnswerCodec,
  adnlMessageQueryCodec,
  blockIdExtCodec,
  liteServerErrorCodec,
  liteServerQueryCodec,
  tcpPingCodec,
  tcpPongCodec,
  tlDeclarationId,
  transactionIdCodec,
  waitMasterchainSeqnoCodec,
} from '../../src/tl';
import * as objects from '../../src/tl/objects';

const specPath = path.resolve(__dirname, '../../../shared/spec/lite_api.tl');
const specAvailable = existsSync(specPath);

/** Splits a .tl file into declarations (they may span lines) and computes every constructor id. */
function idsFromSpec(text: string): Map<string, number> {
  const ids = new Map<string, number>();
  const withoutComments = text.replace(/\/\/.*$/gm, '').replace(/---\w+---/g, ';');
  for (const declaration of withoutComments.split(';')) {
    if (declaration.trim() === '') continue;
    const { name, id } = tlDeclarationId(declaration);
    ids.set(name, id);
  }
  return ids;
}

const describeWithSpec = specAvailable ? describe : describe.skip;
if (!specAvailable) {
  console.warn(`skipping spec-derived constructor id checks: ${specPath} is absent (it exists only next to CI checkouts)`);
}

describeWithSpec('constructor ids recomputed from shared/spec/lite_api.tl', () => {
  const specIds = idsFromSpec(specAvailable ? readFileSync(specPath, 'utf8') : '');

  it('parses the whole schema, including multi-line declarations', () => {
    expect(specIds.get('liteServer.signatureSet.simplex')).toBeDefined();
    expect(specIds.get('liteServer.getDispatchQueueMessages')).toBeDefined();
    expect(specIds.size).toBeGreaterThan(90);
  });

  it.each(Object.entries(TL_IDS).filter(([name]) => !['tcp.ping', 'tcp.pong', 'pub.ed25519'].includes(name)))(
    '%s matches the pinned id',
    (name, pinned) => {
      expect(specIds.has(name)).toBe(true);
      expect(specIds.get(name)).toBe(pinned);
    },
  );

  it('honours explicit ids (transactionId, getValidatorStats, signatureSet.ordinary)', () => {
    expect(specIds.get('liteServer.transactionId')).toBe(0xb12f65af);
    expect(specIds.get('liteServer.getValidatorStats')).toBe(0x091a58bc);
    expect(specIds.get('liteServer.signatureSet.ordinary')).toBe(0xf644a6e6);
  });
});

describe('pinned constructor id table', () => {
  it('derives ids of declarations that are not in lite_api.tl', () => {
    expect(tlDeclarationId('tcp.ping random_id:long = tcp.Pong;').id).toBe(TL_IDS['tcp.ping']);
    expect(tlDeclarationId('tcp.pong random_id:long = tcp.Pong;').id).toBe(TL_IDS['tcp.pong']);
    expect(tlDeclarationId('pub.ed25519 key:int256 = PublicKey;').id).toBe(TL_IDS['pub.ed25519']);
    expect(tlDeclarationId('boolTrue = Bool;').id).toBe(TL_IDS.boolTrue);
    expect(tlDeclarationId('boolFalse = Bool;').id).toBe(TL_IDS.boolFalse);
  });

  it('normalises parentheses and whitespace like the TL parser', () => {
    expect(
      tlDeclarationId('liteServer.transactionList  ids:(vector tonNode.blockIdExt)\n transactions:bytes = liteServer.TransactionList;').id,
    ).toBe(0x6f26c60b);
    expect(
      tlDeclarationId('liteServer.getTransactions count:# account:liteServer.accountId lt:long hash:int256 = liteServer.TransactionList')
        .id,
    ).toBe(0x1c40e7a1);
  });

  it('agrees with ids known from live lite servers', () => {
    const known: [TlConstructorName, number][] = [
      ['liteServer.getMasterchainInfo', 0x89b5e62e],
      ['liteServer.masterchainInfo', 0x85832881],
      ['liteServer.getAccountState', 0x6b890e25],
      ['liteServer.runSmcMethod', 0x5cc65dd2],
      ['liteServer.query', 0x798c06df],
      ['liteServer.waitMasterchainSeqno', 0xbaeab892],
      ['liteServer.error', 0xbba9e148],
      ['adnl.message.query', 0xb48bf97a],
      ['adnl.message.answer', 0x0fac8416],
      ['liteServer.getOutMsgQueueSizes', 0x7bc19c36],
    ];
    for (const [name, id] of known) expect(TL_IDS[name]).toBe(id);
  });

  it('is what every codec writes', () => {
    for (const kind of LITE_QUERY_KINDS) expect(LITE_FUNCTIONS[kind].request.id).toBe(TL_IDS[kind]);
    const constructors = (Object.values(objects) as unknown[]).filter(
      (value): value is { kind: TlConstructorName; id: number } =>
        typeof value === 'object' && value !== null && 'kind' in value && 'id' in value,
    );
    expect(constructors.length).toBeGreaterThan(40);
    for (const c of constructors) expect(c.id).toBe(TL_IDS[c.kind]);
    for (const c of [
      adnlMessageQueryCodec,
      adnlMessageAnswerCodec,
      tcpPingCodec,
      tcpPongCodec,
      liteServerQueryCodec,
      waitMasterchainSeqnoCodec,
      liteServerErrorCodec,
      blockIdExtCodec,
      transactionIdCodec,
    ]) {
      expect(c.id).toBe(TL_IDS[c.kind]);
    }
  });
});
