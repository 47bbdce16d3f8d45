import { metricsRegistry } from '../../src/metrics/registry';
import { TvmPool } from '../../src/tvm';
import { ECHO_CODE, GAS_LOOP_CODE, getMethodTask } from '../hostile/tvmSupport';
import { until } from '../helpers/waiting';

/**
 * TVM threads on demand (src/tvm/pool.ts) against real piscina threads running the sandbox
 * emulator: none before a task, one started by a task, ended after the idle timeout; with an
 * idle timeout of 0 every thread starts with the pool and stays.
 */

const echoTask = (value: bigint) => getMethodTask(ECHO_CODE, [{ type: 'int', value }]);

async function threadsGauge(): Promise<number> {
  const { values } = await metricsRegistry.getSingleMetric('ton_bridge_tvm_threads')!.get();
  return values[0]?.value ?? 0;
}

describe('TVM threads on demand', () => {
  test('no thread before the first task; a task starts one, which ends after the idle timeout; the next task starts another', async () => {
    const pool = new TvmPool({ workers: 2, idleTimeoutMs: 300 });
    try {
      // Readying an on-demand pool at start starts nothing.
      await pool.warm();
      expect(pool.threads).toBe(0);
      const first = await pool.getMethod(echoTask(5n), Date.now() + 30_000);
      expect(first.exitCode).toBe(0);
      expect(pool.threads).toBe(1);
      expect(await threadsGauge()).toBe(1);
      await until(() => pool.threads === 0, 20_000, 'the idle thread to end');
      expect(await threadsGauge()).toBe(0);
      const second = await pool.getMethod(echoTask(6n), Date.now() + 30_000);
      expect(second.exitCode).toBe(0);
      expect(pool.threads).toBe(1);
    } finally {
      await pool.close();
    }
  }, 60_000);

  test('tasks in parallel start threads up to the maximum, not beyond', async () => {
    const pool = new TvmPool({ workers: 2, idleTimeoutMs: 60_000 });
    try {
      const answers = await Promise.all([1n, 2n, 3n, 4n, 5n].map((value) => pool.getMethod(echoTask(value), Date.now() + 30_000)));
      expect(answers.map((answer) => answer.exitCode)).toEqual([0, 0, 0, 0, 0]);
      expect(pool.threads).toBeGreaterThanOrEqual(1);
      expect(pool.threads).toBeLessThanOrEqual(2);
    } finally {
      await pool.close();
    }
  }, 60_000);

  test('idle timeout 0: every thread starts with the pool and stays', async () => {
    const pool = new TvmPool({ workers: 2, idleTimeoutMs: 0 });
    try {
      expect(pool.threads).toBe(2);
      await pool.warm();
      const answer = await pool.getMethod(echoTask(7n), Date.now() + 30_000);
      expect(answer.exitCode).toBe(0);
      // Longer than the on-demand test's idle timeout: nothing ends here.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(pool.threads).toBe(2);
    } finally {
      await pool.close();
    }
  }, 60_000);
});

describe('TVM threads terminated at a deadline', () => {
  test('a terminated thread holds its slot until it has exited: threads alive never exceed the workers', async () => {
    const pool = new TvmPool({ workers: 1, idleTimeoutMs: 60_000 });
    let mostAlive = 0;
    const sampler = setInterval(() => (mostAlive = Math.max(mostAlive, pool.threadsAlive)), 1);
    try {
      await pool.warmAll();
      // An endless loop with all of the get-method gas: still running when its deadline passes.
      const runaway = pool.getMethod({ ...getMethodTask(GAS_LOOP_CODE, []), methodId: 1 }, Date.now() + 300);
      const next = pool.getMethod(echoTask(9n), Date.now() + 30_000);
      await expect(runaway).rejects.toMatchObject({ kind: 'timeout' });
      const answer = await next;
      expect(answer.exitCode).toBe(0);
      expect(answer.stack).toBeDefined();
      expect(pool.threads).toBe(1);
      expect(mostAlive).toBe(1);
      expect(pool.threadsAlive).toBe(1);
    } finally {
      clearInterval(sampler);
      await pool.close();
    }
  }, 60_000);
});
