/**
 * The TVM pool under sustained load (issue 26, item 5), on the embedded chain in this process:
 * 4 clients loop a 4 000 000-gas get-method (an endless loop in a deployed contract) for
 * TVMFLOOD_SECONDS (default 150); RSS sampled every second: at start, peak, at the end and 15 s
 * after; answers by status; thread replacements. Then the emulator's speed: one 4 000 000-gas
 * get-method alone on an idle pool, in gas per second, beside the native figure.
 *
 *   npm run bench -- tvmflood            (TVMFLOOD_SECONDS=30 for a shorter run)
 *
 * Target: RSS stays under 600 MB during the flood and comes back near its start after; the TVM
 * threads alive (terminating ones included) never exceed --tvm-workers.
 */
import pino from 'pino';
import { loadConfig } from '../src/config';
import { startLocalnetSource } from '../src/localnetSource';
import { startServer } from '../src/server';
import { TonClient } from '@ton/ton';
import { TvmPool, tvmPool } from '../src/tvm';
import { tvmWorkerReplacements } from '../src/metrics';
import { contractInit, GAS_LOOP_CODE, getMethodTask, postJson, type Answer } from '../test/hostile/tvmSupport';
import type { LocalStack } from '../test/helpers/localStack';
import { deployFromWallet } from '../test/helpers/walletActions';

const MB = 1024 * 1024;
const CLIENTS = 4;
const GAS = 4_000_000;
/**
 * The native figure: TON's validators run the same C++ TVM compiled natively. No native build is
 * reachable from this machine (npm only), so the figure is derived from the network's own
 * numbers: a basechain block may hold up to its hard gas limit, 20 000 000 gas (mainnet's
 * ConfigParam 23, `gas` of block_limits, as in @ton/sandbox's copy of the mainnet config), and a
 * validator collates or checks a block within about 2 s (basechain blocks come every ~2-3 s), so
 * the native TVM runs at least ~10 M gas/s on one core. A lower bound, not a measurement.
 */
const NATIVE_GAS_PER_SECOND_LOWER_BOUND = 10_000_000;

async function replacements(): Promise<number> {
  const metric = await tvmWorkerReplacements.get();
  return metric.values.reduce((sum, v) => sum + v.value, 0);
}

async function gasPerSecond(): Promise<{ perSecond: number; gasUsed: number; ms: number }> {
  const pool = new TvmPool({ workers: 1, idleTimeoutMs: 0 });
  try {
    await pool.warm();
    const task = { ...getMethodTask(GAS_LOOP_CODE, []), methodId: 1 };
    // One run to settle the thread, then the measured one.
    await pool.getMethod(task, Date.now() + 120_000);
    const started = performance.now();
    const answer = await pool.getMethod(task, Date.now() + 120_000);
    const ms = performance.now() - started;
    return { perSecond: (answer.gasUsed / ms) * 1000, gasUsed: answer.gasUsed, ms };
  } finally {
    await pool.close();
  }
}

export async function runTvmFloodBench(): Promise<void> {
  const seconds = Number(process.env['TVMFLOOD_SECONDS'] ?? 150);
  // --block-interval 0: the deploy seals its block on arrival (with a long interval it would wait
  // for a timed block that never comes, and the flood would run against an uninit account: exit -13).
  const { config } = loadConfig(['--port', '0', '--keyless-rps', '0', '--accounts', '2', '--block-interval', '0'], {});
  const logger = pino({ level: 'silent' });
  const source = await startLocalnetSource(config, logger);
  const server = await startServer(config, logger, source);
  const stack = { url: server.url, api: `${server.url}/api/v2`, localnet: source.localnet, server, stop: () => server.stop() } as LocalStack;
  try {
    // Threads ready before the first get-method: their start (code loading under tsx, the
    // emulator) is not what is measured, and on a loaded machine it can pass a 10 s deadline.
    await tvmPool().warmAll();
    const client = new TonClient({ endpoint: `${stack.api}/jsonRPC` });
    const [loop] = await deployFromWallet(client, source.localnet.wallets.keyPair, [contractInit(GAS_LOOP_CODE, 26)]);
    const address = loop!.toString();
    const state = (await (await fetch(`${stack.api}/getAddressState?address=${encodeURIComponent(address)}`)).json()) as { result: string };
    if (state.result !== 'active') throw new Error(`the gas-loop contract is ${state.result}, not active: the flood would measure nothing`);
    let call = 0;
    const body = () => JSON.stringify({ address, method: 'burn', stack: [['num', String(++call)]] });

    const rssStart = process.memoryUsage().rss;
    const replacedBefore = await replacements();
    let peak = rssStart;
    // TVM threads alive, those being terminated included (TVMFLOOD_TRACE=1 prints each second).
    const pool = tvmPool();
    let mostAlive = pool.threadsAlive;
    const aliveSampler = setInterval(() => (mostAlive = Math.max(mostAlive, pool.threadsAlive)), 20);
    const trace: string[] = [];
    const sampler = setInterval(() => {
      const rss = process.memoryUsage().rss;
      peak = Math.max(peak, rss);
      if (process.env['TVMFLOOD_TRACE']) trace.push(`${(rss / MB).toFixed(0)}/${pool.threadsAlive}`);
    }, 1000);
    const until = Date.now() + seconds * 1000;
    const answers: Answer[] = [];
    // Other requests meanwhile: a balance read (lite server and proofs, no TVM) every 250 ms.
    const wallet = source.localnet.wallets.wallets[0]!.address.toString();
    const probes: number[] = [];
    let probeErrors = 0;
    const probe = async () => {
      while (Date.now() < until) {
        const started = performance.now();
        const res = await fetch(`${stack.api}/getAddressBalance?address=${encodeURIComponent(wallet)}`);
        await res.arrayBuffer();
        if (res.status === 200) probes.push(performance.now() - started);
        else probeErrors++;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    await Promise.all([
      probe(),
      ...Array.from({ length: CLIENTS }, async () => {
        while (Date.now() < until) answers.push(await postJson(stack, 'runGetMethod', body()));
      }),
    ]);
    clearInterval(sampler);
    clearInterval(aliveSampler);
    if (trace.length > 0) console.log(`  RSS MB / threads alive, each second: ${trace.join(' ')}`);
    const rssEnd = process.memoryUsage().rss;
    await new Promise((resolve) => setTimeout(resolve, 15_000));
    const rssAfter = process.memoryUsage().rss;
    const statuses = new Map<string, number>();
    for (const answer of answers) {
      const key =
        answer.status === 200 ? `200 exit ${(answer.body.result as { exit_code?: number } | undefined)?.exit_code}` : String(answer.status);
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
    }
    console.log(
      `tvmflood: ${CLIENTS} clients x ${seconds} s of a ${GAS.toLocaleString('en')}-gas get-method, ${config.tvmWorkers} TVM threads: ` +
        `${[...statuses].map(([k, n]) => `${n}x ${k}`).join(', ')}; threads replaced ${(await replacements()) - replacedBefore}, ` +
        `most threads alive at once (terminating ones included) ${mostAlive}`,
    );
    probes.sort((a, b) => a - b);
    const at = (f: number) => (probes.length === 0 ? NaN : probes[Math.min(probes.length - 1, Math.floor(probes.length * f))]!);
    console.log(
      `  other requests (getAddressBalance every 250 ms, ${probes.length} ok, ${probeErrors} failed): ` +
        `p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${at(1).toFixed(1)} ms`,
    );
    console.log(
      `  RSS start ${(rssStart / MB).toFixed(0)} MB, peak ${(peak / MB).toFixed(0)} MB, end ${(rssEnd / MB).toFixed(0)} MB, 15 s after ${(rssAfter / MB).toFixed(0)} MB`,
    );
  } finally {
    await stack.stop();
  }
  const speed = await gasPerSecond();
  console.log(
    `  emulator (wasm, one thread): ${(speed.perSecond / 1e6).toFixed(2)} M gas/s (${speed.gasUsed} gas in ${speed.ms.toFixed(0)} ms); ` +
      `native TVM: >= ${(NATIVE_GAS_PER_SECOND_LOWER_BOUND / 1e6).toFixed(0)} M gas/s (lower bound from mainnet's block gas limit and block time, see bench/tvmFlood.ts)`,
  );
}
