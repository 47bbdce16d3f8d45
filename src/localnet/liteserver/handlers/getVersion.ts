import { LiteHandler } from '../dispatcher';
import { LS_CAPABILITIES, LS_VERSION, unixNow } from './common';

export function getVersion(): LiteHandler<'liteServer.getVersion'> {
  return async () => ({ kind: 'liteServer.version', mode: 0, version: LS_VERSION, capabilities: LS_CAPABILITIES, now: unixNow() });
}
