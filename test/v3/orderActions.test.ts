import { Address, beginCell, Dictionary, internal, storeMessageRelaxed, type Cell } from '@ton/core';
import { parseOrderActions } from '../../src/v3/models/multisigVesting';
import { storeJettonTransfer, storeTextComment } from '../../src/tlb';

/**
 * `parse_actions` of multisig/orders: an order's dictionary read as ton-index-go's ParseOrder
 * reads it (send_message with its body parsed, update_multisig_params, an action it cannot read).
 */

const A = Address.parse('0:' + '11'.repeat(32));
const B = Address.parse('0:' + '22'.repeat(32));
const raw = (a: Address) => `0:${a.hash.toString('hex').toUpperCase()}`;

const sendMessage = (to: Address, value: bigint, body: Cell) =>
  beginCell()
    .storeUint(0xf1381e5b, 32)
    .storeUint(3, 8)
    .storeRef(beginCell().store(storeMessageRelaxed(internal({ to, value, body, bounce: true }))))
    .endCell();

function orderOf(actions: Cell[]): string {
  const dict = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Cell());
  actions.forEach((a, i) => dict.set(i, a));
  return beginCell().storeDictDirect(dict).endCell().toBoc().toString('base64');
}

test('send_message actions with their bodies parsed, an update of the parameters, an unreadable action', () => {
  const comment = beginCell().store(storeTextComment({ text: Buffer.from('hi') })).endCell();
  const transfer = beginCell()
    .store(storeJettonTransfer({ queryId: 5n, amount: 700n, destination: B, responseDestination: A, customPayload: null, forwardTonAmount: 1n, forwardPayload: { inRef: true, cell: comment } }))
    .endCell();
  const signers = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());
  signers.set(0, A).set(1, B);
  const update = beginCell().storeUint(0x1d0cfbd3, 32).storeUint(2, 8).storeRef(beginCell().storeDictDirect(signers)).storeDict(null).endCell();
  const strange = beginCell().storeUint(0xdeadbeef, 32).endCell();
  const unknownBody = beginCell().storeUint(0x12345678, 32).endCell();
  const actions = parseOrderActions(orderOf([sendMessage(A, 10n, comment), sendMessage(B, 20n, transfer), update, strange, sendMessage(A, 30n, unknownBody)]));
  expect(actions).toEqual([
    { destination: raw(A), value: '10', body_raw: comment.toBoc().toString('base64'), parsed: true, error: null, parsed_body: { comment: '\u0000\u0000\u0000\u0000hi', encrypted: false }, parsed_body_type: 'ton_transfer', send_mode: 3 },
    {
      destination: raw(B),
      value: '20',
      body_raw: transfer.toBoc().toString('base64'),
      parsed: true,
      error: null,
      parsed_body: {
        query_id: 5,
        amount: '700',
        destination: raw(B),
        response: raw(A),
        custom_payload: null,
        forward_amount: '1',
        comment: 'hi',
        encrypted_comment: false,
        forward_payload: comment.toBoc().toString('base64'),
        payload_sum_type: 'TextComment',
        stonfi_swap_body: null,
      },
      parsed_body_type: 'jetton_transfer',
      send_mode: 3,
    },
    { destination: null, value: null, body_raw: null, parsed: true, error: null, parsed_body: { new_threshold: 2, new_signers: [raw(A), raw(B)], new_proposers: null }, parsed_body_type: 'multisig_update_params', send_mode: 0 },
    expect.objectContaining({ parsed: false, parsed_body: null, parsed_body_type: 'unknown', error: expect.stringContaining('failed to parse order action') }),
    expect.objectContaining({ destination: raw(A), parsed_body_type: 'unknown', parsed_body: { opcode: 0x12345678, data: unknownBody.toBoc().toString('base64') } }),
  ]);
  expect(parseOrderActions('not a boc')).toBeNull();
});
