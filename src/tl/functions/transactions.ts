/** Transaction functions: one transaction, an account's history, and the transactions of a block. */
import { constructor, int256, int64, nat, optional, trueFlag } from '../codec';
import {
  AccountId,
  BlockIdExt,
  BlockTransactions,
  BlockTransactionsExt,
  TransactionId3,
  TransactionInfo,
  TransactionList,
  accountIdCodec,
  blockIdExtCodec,
  blockTransactionsCodec,
  blockTransactionsExtCodec,
  transactionId3Codec,
  transactionInfoCodec,
  transactionListCodec,
} from '../objects';
import type { LiteFunctionTable } from './liteFunction';

const blockIdExt = blockIdExtCodec.bare;
const accountId = accountIdCodec.bare;

const listTransactionsFields = {
  id: blockIdExt,
  mode: nat,
  count: nat,
  after: optional('mode', 7, transactionId3Codec.bare),
  reverseOrder: trueFlag('mode', 6),
  wantProof: trueFlag('mode', 5),
};

export interface GetOneTransaction {
  readonly kind: 'liteServer.getOneTransaction';
  readonly id: BlockIdExt;
  readonly account: AccountId;
  readonly lt: string;
}
export interface GetTransactions {
  readonly kind: 'liteServer.getTransactions';
  readonly count: number;
  readonly account: AccountId;
  readonly lt: string;
  readonly hash: Buffer;
}
/** mode bits: 0 account, 1 lt, 2 hash (of each id), 5 wantProof, 6 reverseOrder, 7 after. */
export interface ListBlockTransactions {
  readonly kind: 'liteServer.listBlockTransactions';
  readonly id: BlockIdExt;
  readonly mode: number;
  readonly count: number;
  readonly after: TransactionId3 | null;
  readonly reverseOrder: boolean | null;
  readonly wantProof: boolean | null;
}
export interface ListBlockTransactionsExt {
  readonly kind: 'liteServer.listBlockTransactionsExt';
  readonly id: BlockIdExt;
  readonly mode: number;
  readonly count: number;
  readonly after: TransactionId3 | null;
  readonly reverseOrder: boolean | null;
  readonly wantProof: boolean | null;
}

export type TransactionQuery = GetOneTransaction | GetTransactions | ListBlockTransactions | ListBlockTransactionsExt;

/** The answer type of each function of the family (its boxed result type in lite_api.tl). */
export interface TransactionAnswers {
  'liteServer.getOneTransaction': TransactionInfo;
  'liteServer.getTransactions': TransactionList;
  'liteServer.listBlockTransactions': BlockTransactions;
  'liteServer.listBlockTransactionsExt': BlockTransactionsExt;
}

export const TRANSACTION_FUNCTIONS: LiteFunctionTable<TransactionQuery, TransactionAnswers> = {
  'liteServer.getOneTransaction': {
    request: constructor<GetOneTransaction>('liteServer.getOneTransaction', {
      id: blockIdExt,
      account: accountId,
      lt: int64,
    }),
    answer: transactionInfoCodec,
  },
  'liteServer.getTransactions': {
    request: constructor<GetTransactions>('liteServer.getTransactions', {
      count: nat,
      account: accountId,
      lt: int64,
      hash: int256,
    }),
    answer: transactionListCodec,
  },
  'liteServer.listBlockTransactions': {
    request: constructor<ListBlockTransactions>('liteServer.listBlockTransactions', listTransactionsFields),
    answer: blockTransactionsCodec,
  },
  'liteServer.listBlockTransactionsExt': {
    request: constructor<ListBlockTransactionsExt>('liteServer.listBlockTransactionsExt', listTransactionsFields),
    answer: blockTransactionsExtCodec,
  },
};
