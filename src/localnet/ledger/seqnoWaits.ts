/** `liteServer.waitMasterchainSeqno` on the local chain: new blocks and restores wake the waiters. */
import { EventEmitter } from 'events';
import { ChainStoppedError, WaitTimeoutError } from './errors';
import { StoredBlock } from './store';

/**
 * Resolves once a `block` event reaches `seqno`, or at a `rewind` event (a restored snapshot: the
 * awaited seqno may be far away now, and waiters such as the API's head tracker must see the head
 * go back at once); rejects with WaitTimeoutError after `timeoutMs`, and with ChainStoppedError at
 * a `stop` event (the chain stopped: no block will come, and its timer must not outlive the chain).
 */
export function waitForSeqno(events: EventEmitter, height: number, seqno: number, timeoutMs: number): Promise<void> {
  if (height >= seqno) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onBlock = (block: StoredBlock) => {
      if (block.id.seqno >= seqno) finish();
    };
    const finish = (err?: Error) => {
      clearTimeout(timer);
      events.off('block', onBlock);
      events.off('rewind', onRewind);
      events.off('stop', onStop);
      if (err) reject(err);
      else resolve();
    };
    const onRewind = () => finish();
    const onStop = () => finish(new ChainStoppedError());
    events.on('block', onBlock);
    events.on('rewind', onRewind);
    events.on('stop', onStop);
    const timer = setTimeout(() => finish(new WaitTimeoutError(seqno)), timeoutMs);
  });
}
