import { beginCell, Cell, StateInit } from '@ton/core';

/**
 * A contract whose every get-method with two arguments (dnsresolve's shape) answers
 * `(uint16 from data, first ref of data)`, so tests can put any DNS answer on the local chain
 * without a compiler. Hand-assembled TVM: DROP ×3 (method id and two arguments), PUSH c4, CTOS,
 * LDU 16, LDREF, DROP. Internal messages (five stack entries) run through it harmlessly.
 */
export const FIXED_ANSWER_CODE = beginCell().storeBuffer(Buffer.from('303030ed44d0d30fd430', 'hex')).endCell();

/** A library cell standing for `code` (the chain must hold `code` as a public library). */
export function libraryCellOf(code: Cell): Cell {
  return beginCell().storeUint(2, 8).storeBuffer(code.hash()).endCell({ exotic: true });
}

export function fixedAnswerInit(bits: number, answer: Cell, code: Cell = FIXED_ANSWER_CODE): StateInit {
  return { code, data: beginCell().storeUint(bits, 16).storeRef(answer).endCell() };
}
