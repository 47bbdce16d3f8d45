import { Address, beginCell, Cell, Dictionary, ExternalAddress, Message, StateInit, storeMessage, storeStateInit } from '@ton/core';
import {
  loadSnakeBytes,
  messageBase64,
  parseMessageCell,
  toExtraCurrencies,
  toMessageText,
  toMsgData,
  toRawMessage,
  toTransactionMessage,
} from '../../src/converters/message';
import { bocBase64 } from '../../src/cells/bocWriter';

const SRC = Address.parse('0:' + '11'.repeat(32));
const DEST = Address.parse('-1:' + '22'.repeat(32));

function messageCell(message: Message, forceRef = false): Cell {
  return beginCell().store(storeMessage(message, { forceRef })).endCell();
}

const STATE_INIT: StateInit = {
  code: beginCell().storeUint(0xc0de, 16).endCell(),
  data: beginCell().storeUint(42, 32).endCell(),
};

describe('msg_data', () => {
  test('op 0 + snake string is msg.dataText with base64 of the comment bytes', () => {
    const body = beginCell().storeUint(0, 32).storeStringTail('Sea breeze 🌊').endCell();
    const data = toMsgData(body);
    expect(data).toEqual({ '@type': 'msg.dataText', text: Buffer.from('Sea breeze 🌊').toString('base64') });
    expect(toMessageText(data, body)).toBe('Sea breeze 🌊');
  });

  test('a comment continued through references is read whole', () => {
    const long = 'x'.repeat(300);
    const body = beginCell().storeUint(0, 32).storeStringTail(long).endCell();
    expect(body.refs.length).toBe(1);
    expect(toMsgData(body)).toEqual({ '@type': 'msg.dataText', text: Buffer.from(long).toString('base64') });
  });

  test('an empty comment (op 0 only) is an empty dataText', () => {
    const body = beginCell().storeUint(0, 32).endCell();
    expect(toMsgData(body)).toEqual({ '@type': 'msg.dataText', text: '' });
    expect(toMessageText(toMsgData(body), body)).toBe('');
  });

  test('op 0 with a bit count that is not a whole number of bytes is raw', () => {
    const body = beginCell().storeUint(0, 32).storeUint(1, 3).endCell();
    expect(toMsgData(body)['@type']).toBe('msg.dataRaw');
  });

  test('the byte count is checked over the whole chain, not per cell', () => {
    const tail = beginCell().storeUint(1, 5).endCell();
    const body = beginCell().storeUint(0, 32).storeUint(0, 3).storeRef(tail).endCell();
    expect(loadSnakeBytes(body.beginParse().skip(32))).toEqual(Buffer.from([0x01]));
    expect(toMsgData(body)).toEqual({ '@type': 'msg.dataText', text: Buffer.from([0x01]).toString('base64') });
  });

  test('op 0x2167da4b is msg.dataEncryptedText and its message is empty', () => {
    const payload = Buffer.alloc(48, 7);
    const body = beginCell().storeUint(0x2167da4b, 32).storeBuffer(payload).endCell();
    const data = toMsgData(body);
    expect(data).toEqual({ '@type': 'msg.dataEncryptedText', text: payload.toString('base64') });
    expect(toMessageText(data, body)).toBe('');
  });

  test('invalid UTF-8 in a comment keeps the bytes in text but gives an empty message', () => {
    const body = beginCell()
      .storeUint(0, 32)
      .storeBuffer(Buffer.from([0xff, 0xfe]))
      .endCell();
    const data = toMsgData(body);
    expect(data).toEqual({ '@type': 'msg.dataText', text: Buffer.from([0xff, 0xfe]).toString('base64') });
    expect(toMessageText(data, body)).toBe('');
  });

  test('other bodies are msg.dataRaw with the body BoC and init_state "" or its BoC', () => {
    const body = beginCell().storeUint(0x7362d09c, 32).endCell();
    expect(toMsgData(body)).toEqual({ '@type': 'msg.dataRaw', body: bocBase64(body), init_state: '' });
    const init = beginCell().store(storeStateInit(STATE_INIT)).endCell();
    expect(toMsgData(body, init)).toEqual({ '@type': 'msg.dataRaw', body: bocBase64(body), init_state: bocBase64(init) });
  });

  test('bodies shorter than 32 bits are raw', () => {
    expect(toMsgData(Cell.EMPTY)['@type']).toBe('msg.dataRaw');
    expect(toMsgData(beginCell().storeUint(0, 16).endCell())['@type']).toBe('msg.dataRaw');
  });
});

describe('the message string of raw bodies', () => {
  test('C++ form: one line of base64 and a newline at the end (no 76-character breaks)', () => {
    expect(messageBase64(Buffer.alloc(0))).toBe('');
    expect(messageBase64(Buffer.from([0xff, 0xff, 0xff, 0xff]))).toBe('/////w==\n');
    const text = messageBase64(Buffer.alloc(100, 0xab));
    expect(text).toBe(Buffer.alloc(100, 0xab).toString('base64') + '\n');
    expect(text.split('\n')).toHaveLength(2);
  });

  test('only the root cell data counts, with a partial last byte padded with zeros', () => {
    const body = beginCell().storeUint(0b101, 3).storeRef(beginCell().storeUint(0xff, 8).endCell()).endCell();
    expect(toMessageText(toMsgData(body), body)).toBe(Buffer.from([0b1010_0000]).toString('base64') + '\n');
  });
});

describe('message cells', () => {
  const internal: Message = {
    info: {
      type: 'internal',
      ihrDisabled: true,
      bounce: false,
      bounced: false,
      src: SRC,
      dest: DEST,
      value: {
        coins: 123n,
        other: (() => {
          const dict = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigVarUint(5));
          dict.set(239, 5n);
          dict.set(7, 1000n);
          return dict;
        })(),
      },
      ihrFee: 0n,
      forwardFee: 456n,
      createdLt: 789n,
      createdAt: 1,
    },
    init: STATE_INIT,
    body: beginCell().storeUint(0xabcdef01, 32).endCell(),
  };

  test('internal message: every field, addresses as tonlib friendly strings', () => {
    const cell = messageCell(internal);
    const json = toTransactionMessage(cell);
    expect(Object.keys(json)).toEqual([
      '@type',
      'hash',
      'source',
      'destination',
      'value',
      'extra_currencies',
      'fwd_fee',
      'ihr_fee',
      'created_lt',
      'body_hash',
      'msg_data',
      'message',
    ]);
    expect(json).toMatchObject({
      hash: cell.hash().toString('base64'),
      source: SRC.toString(),
      destination: DEST.toString(),
      value: '123',
      extra_currencies: [
        { '@type': 'extraCurrency', id: 7, amount: '1000' },
        { '@type': 'extraCurrency', id: 239, amount: '5' },
      ],
      fwd_fee: '456',
      ihr_fee: '0',
      created_lt: '789',
      body_hash: internal.body.hash().toString('base64'),
      message: 'q83vAQ==\n',
    });
    expect(DEST.toString().startsWith('Ef')).toBe(true);
  });

  test('inline and referenced StateInit give the same init_state cell', () => {
    const inline = parseMessageCell(messageCell(internal, false));
    const byRef = parseMessageCell(messageCell(internal, true));
    expect(inline.init!.hash()).toEqual(beginCell().store(storeStateInit(STATE_INIT)).endCell().hash());
    expect(byRef.init!.hash()).toEqual(inline.init!.hash());
    expect(inline.body.hash()).toEqual(byRef.body.hash());
  });

  test('external-in: empty source, zero value/fees/created_lt', () => {
    const cell = messageCell({
      info: { type: 'external-in', src: new ExternalAddress(5n, 8), dest: SRC, importFee: 9n },
      body: beginCell().storeUint(1, 64).endCell(),
    });
    expect(toRawMessage(cell)).toMatchObject({
      source: { '@type': 'accountAddress', account_address: '' },
      destination: { '@type': 'accountAddress', account_address: SRC.toString() },
      value: '0',
      fwd_fee: '0',
      created_lt: '0',
      extra_currencies: [],
    });
    expect(toTransactionMessage(cell).source).toBe('');
  });

  test('toExtraCurrencies of a plain amount is empty', () => {
    expect(toExtraCurrencies({ coins: 1n })).toEqual([]);
    expect(toExtraCurrencies(null)).toEqual([]);
  });
});
