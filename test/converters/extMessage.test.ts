import { Address, beginCell, Cell, external, storeMessage } from '@ton/core';
import { normalizeExternalMessage, toExtMessageInfo } from '../../src/converters/extMessage';
import { describeWithFixtures, loadFixtures } from '../helpers/fixtures';

const DESTINATION = new Address(0, Buffer.alloc(32, 0x21));

function message(body: Cell, init?: { code: Cell; data: Cell }, src?: Cell): Cell {
  const cell = beginCell()
    .store(storeMessage(external({ to: DESTINATION, body, init })))
    .endCell();
  if (!src) return cell;
  // Same message from an external source address with an import fee: still the same normalized form.
  const rest = cell.beginParse();
  rest.loadUint(2);
  rest.loadAddressAny();
  rest.loadAddress();
  rest.loadCoins();
  return beginCell().storeUint(2, 2).storeSlice(src.beginParse()).storeAddress(DESTINATION).storeCoins(5).storeSlice(rest).endCell();
}

describe('sendBocReturnHash: message hash and normalized hash (TEP-467)', () => {
  const body = beginCell().storeUint(0xdeadbeef, 32).storeRef(beginCell().storeUint(1, 1).endCell()).endCell();

  test('the normalized form keeps destination and body only, the body in a reference', () => {
    const inline = message(body);
    const normalized = normalizeExternalMessage(inline);
    expect(normalized.refs).toHaveLength(1);
    expect(normalized.refs[0].hash().equals(body.hash())).toBe(true);
    const info = toExtMessageInfo(inline);
    expect(info).toEqual({
      '@type': 'raw.extMessageInfo',
      hash: inline.hash().toString('base64'),
      hash_norm: normalized.hash().toString('base64'),
    });
    expect(info.hash).not.toBe(info.hash_norm);
  });

  test('StateInit, source address and import fee do not change the normalized hash', () => {
    const plain = toExtMessageInfo(message(body)).hash_norm;
    const withInit = message(body, { code: beginCell().storeUint(1, 8).endCell(), data: Cell.EMPTY });
    expect(toExtMessageInfo(withInit).hash_norm).toBe(plain);
    const fromSource = message(body, undefined, beginCell().storeUint(1, 2).storeUint(8, 9).storeUint(0xab, 8).endCell());
    expect(toExtMessageInfo(fromSource).hash_norm).toBe(plain);
    expect(toExtMessageInfo(fromSource).hash).not.toBe(toExtMessageInfo(message(body)).hash);
  });
});

describeWithFixtures('sendBoc recording', () => {
  test('sendBoc-01: the recorded BoC is an inbound external message with a normalized form', () => {
    const [f] = loadFixtures('sendBoc');
    const cell = Cell.fromBase64(f.params['boc'] as string);
    const info = toExtMessageInfo(cell);
    expect(info.hash).toBe(cell.hash().toString('base64'));
    expect(Buffer.from(info.hash_norm, 'base64')).toHaveLength(32);
  });
});
