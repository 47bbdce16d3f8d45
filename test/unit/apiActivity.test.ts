import { Worker } from 'node:worker_threads';
import { ApiActivityBoard, ApiActivityView } from '../../src/indexer';

describe('the API activity the index thread reads', () => {
  it('is busy from a request until recentMs of quiet, on the reader\'s clock', () => {
    const board = new ApiActivityBoard();
    let now = 10_000;
    const view = new ApiActivityView(board.buffer, 1000, () => now);
    // Requests counted before the reader existed are not "lately".
    expect(view.busy()).toBe(false);
    board.requestStarted();
    now += 5;
    expect(view.busy()).toBe(true);
    now += 999;
    expect(view.busy()).toBe(true);
    now += 1;
    expect(view.busy()).toBe(false);
    // More requests: busy again, for the window from the read that saw them.
    board.requestStarted();
    board.requestStarted();
    now += 500;
    expect(view.busy()).toBe(true);
    now += 999;
    expect(view.busy()).toBe(true);
    now += 1;
    expect(view.busy()).toBe(false);
  });

  it('reads the counter another thread writes, through the shared buffer alone', async () => {
    const board = new ApiActivityBoard();
    const view = new ApiActivityView(board.buffer, 60_000);
    expect(view.busy()).toBe(false);
    // A thread that receives only the buffer (as the index thread does in its workerData) and counts into it.
    const worker = new Worker(
      `const { workerData, parentPort } = require('node:worker_threads');
       const counter = new Int32Array(workerData);
       for (let i = 0; i < 1000; i++) Atomics.add(counter, 0, 1);
       parentPort.postMessage(Atomics.load(counter, 0));`,
      { eval: true, workerData: board.buffer },
    );
    const seen = await new Promise<number>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(seen).toBe(1000);
    expect(view.busy()).toBe(true);
  });
});
