import { invalid } from './define';

/** Cross-parameter rules shared by several methods, with toncenter's C++ texts (its Appendix B). */

export function positiveSeqno(seqno: number | undefined): void {
  if (seqno !== undefined && seqno <= 0) invalid('seqno should be positive');
}

export const MAX_BLOCK_TRANSACTIONS = 10000;
export const MAX_ACCOUNT_TRANSACTIONS = 1000;

export function blockTransactionsPaging(p: {
  seqno: number;
  count: number;
  after_lt?: bigint | undefined;
  after_hash?: Buffer | undefined;
}): void {
  positiveSeqno(p.seqno);
  if (p.count <= 0) invalid('count should be positive');
  if (p.count > MAX_BLOCK_TRANSACTIONS) invalid(`count should be less or equal ${MAX_BLOCK_TRANSACTIONS}`);
  if (p.after_lt !== undefined && p.after_lt < 0n) invalid('after_lt should be non-negative');
  if ((p.after_lt === undefined) !== (p.after_hash === undefined)) {
    invalid('after_lt and after_hash should be used together');
  }
}

export function accountTransactionsPaging(p: {
  limit: number;
  lt?: bigint | undefined;
  hash?: Buffer | undefined;
  to_lt?: bigint | undefined;
}): void {
  if (p.limit <= 0) invalid('limit should be positive');
  if (p.limit > MAX_ACCOUNT_TRANSACTIONS) invalid(`limit should be less or equal ${MAX_ACCOUNT_TRANSACTIONS}`);
  if (p.lt !== undefined && p.lt < 0n) invalid('lt should be non-negative');
  if (p.to_lt !== undefined && p.to_lt < 0n) invalid('to_lt should be non-negative');
  // toncenter treats lt = 0 as "not given"; a hash alone or an lt alone is a mistake.
  const hasLt = p.lt !== undefined && p.lt !== 0n;
  if (hasLt !== (p.hash !== undefined)) invalid('lt and hash should be used together');
}

export function configParamSelector(p: { param?: number | undefined; config_id?: number | undefined }): void {
  if (p.param !== undefined && p.config_id !== undefined && p.param !== p.config_id) {
    invalid('only one of config_id or param should be specified');
  }
  const id = p.config_id ?? p.param;
  if (id === undefined) invalid('param required');
  if (id < 0) invalid('param should be non-negative');
}

export function nonEmptyBoc(boc: Buffer): void {
  if (boc.length === 0) invalid('empty boc');
}
