'use strict';
/**
 * jest's node environment, plus a check at the end of every suite: the handles (sockets, servers,
 * timers, child processes) the suite opened and did not close. Suites run one at a time in one
 * process (maxWorkers: 1), so a handle one suite leaves behind is open during every later suite
 * and keeps jest from exiting. A suite that leaves any is named with the list on stderr (after a
 * grace of GRACE_MS for closes that complete on the next turns of the event loop); with
 * JEST_FAIL_ON_OPEN_HANDLES=1 it fails instead (as .ci/run runs it). Worker threads are not seen
 * (process.getActiveResourcesInfo() does not list them): jest's "did not exit" notice still does.
 *
 * Plain JavaScript: jest loads its test environment before any transform.
 */
const { TestEnvironment } = require('jest-environment-node');

const GRACE_MS = 2000;

/** Counts of open handles by kind, e.g. { TCPSocketWrap: 2, Timeout: 1 }. */
function openHandles() {
  const counts = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] || 0) + 1;
  return counts;
}

/** Kinds with more handles now than at the start. FSReqCallback and friends are one-shot requests. */
function added(before, after) {
  const out = {};
  for (const [kind, count] of Object.entries(after)) {
    if (/Req|Immediate/.test(kind)) continue;
    const extra = count - (before[kind] || 0);
    if (extra > 0) out[kind] = extra;
  }
  return out;
}

class HandleCheckingEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
  }

  async setup() {
    await super.setup();
    this.before = openHandles();
  }

  async teardown() {
    const deadline = Date.now() + GRACE_MS;
    let left = added(this.before, openHandles());
    while (Object.keys(left).length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      left = added(this.before, openHandles());
    }
    await super.teardown();
    if (Object.keys(left).length === 0) return;
    const list = Object.entries(left)
      .map(([kind, count]) => `${count} ${kind}`)
      .join(', ');
    const message = `${this.testPath} left open handles after its last test: ${list} (close them in afterAll)`;
    if (process.env.JEST_FAIL_ON_OPEN_HANDLES === '1') throw new Error(message);
    process.stderr.write(`\n${message}\n`);
  }
}

module.exports = HandleCheckingEnvironment;
