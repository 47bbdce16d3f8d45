/** Account functions: proven account states, get-method runs, and sending external messages. */
import { bytes, constructor, int64, nat } from '../codec';
import {
  AccountId,
  AccountState,
  BlockIdExt,
  RunMethodResult,
  SendMsgStatus,
  accountIdCodec,
  accountStateCodec,
  blockIdExtCodec,
  runMethodResultCodec,
  sendMsgStatusCodec,
} from '../objects';
import type { LiteFunctionTable } from './liteFunction';

const blockIdExt = blockIdExtCodec.bare;
const accountId = accountIdCodec.bare;

export interface SendMessage {
  readonly kind: 'liteServer.sendMessage';
  readonly body: Buffer;
}
export interface GetAccountState {
  readonly kind: 'liteServer.getAccountState';
  readonly id: BlockIdExt;
  readonly account: AccountId;
}
export interface GetAccountStatePrunned {
  readonly kind: 'liteServer.getAccountStatePrunned';
  readonly id: BlockIdExt;
  readonly account: AccountId;
}
export interface RunSmcMethod {
  readonly kind: 'liteServer.runSmcMethod';
  readonly mode: number;
  readonly id: BlockIdExt;
  readonly account: AccountId;
  readonly methodId: string;
  readonly params: Buffer;
}

export type AccountQuery = SendMessage | GetAccountState | GetAccountStatePrunned | RunSmcMethod;

/** The answer type of each function of the family (its boxed result type in lite_api.tl). */
export interface AccountAnswers {
  'liteServer.sendMessage': SendMsgStatus;
  'liteServer.getAccountState': AccountState;
  'liteServer.getAccountStatePrunned': AccountState;
  'liteServer.runSmcMethod': RunMethodResult;
}

export const ACCOUNT_FUNCTIONS: LiteFunctionTable<AccountQuery, AccountAnswers> = {
  'liteServer.sendMessage': {
    request: constructor<SendMessage>('liteServer.sendMessage', { body: bytes }),
    answer: sendMsgStatusCodec,
  },
  'liteServer.getAccountState': {
    request: constructor<GetAccountState>('liteServer.getAccountState', { id: blockIdExt, account: accountId }),
    answer: accountStateCodec,
  },
  'liteServer.getAccountStatePrunned': {
    request: constructor<GetAccountStatePrunned>('liteServer.getAccountStatePrunned', {
      id: blockIdExt,
      account: accountId,
    }),
    answer: accountStateCodec,
  },
  'liteServer.runSmcMethod': {
    request: constructor<RunSmcMethod>('liteServer.runSmcMethod', {
      mode: nat,
      id: blockIdExt,
      account: accountId,
      methodId: int64,
      params: bytes,
    }),
    answer: runMethodResultCodec,
  },
};
