import { LiteHandler } from '../dispatcher';
import { unixNow } from './common';

export function getTime(): LiteHandler<'liteServer.getTime'> {
  return async () => ({ kind: 'liteServer.currentTime', now: unixNow() });
}
