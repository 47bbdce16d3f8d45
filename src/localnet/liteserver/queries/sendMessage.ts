import { LiteServerError } from '../../../errors';
import { ExternalMessageRejectedError, InvalidExternalMessageError } from '../../ledger/errors';
import { LocalChain } from '../../ledger/LocalChain';
import { LiteHandler } from '../dispatcher';

const PREFIX = 'cannot apply external message to current state : ';

/** Executes the external message at once; a block with its cascade is sealed before answering. */
export function sendMessage(chain: LocalChain): LiteHandler<'liteServer.sendMessage'> {
  return async (query) => {
    try {
      await chain.sendExternalMessage(query.body);
    } catch (err) {
      if (err instanceof ExternalMessageRejectedError) {
        const exit = err.exitCode === null ? '' : ` exitcode=${err.exitCode}`;
        throw new LiteServerError(0, `${PREFIX}External message was not accepted\n${err.reason}${exit}`);
      }
      if (err instanceof InvalidExternalMessageError) {
        throw new LiteServerError(0, `${PREFIX}failed to parse external message: ${err.message}`);
      }
      throw err;
    }
    return { kind: 'liteServer.sendMsgStatus', status: 1 };
  };
}
