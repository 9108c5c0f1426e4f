/**
 * What the clocks cost and how long the clock oracles take:
 * - the clock-offset library: ns per Date.now() in a Node child and µs per redis SET round trip,
 *   with and without LD_PRELOAD;
 * - wall time of each clock oracle (V316–V319) on each of its reference targets (whole runOracle
 *   calls, store start included), and for V319 the real time each simulated day took, on all four
 *   default transition days.
 * Prints Markdown for docs/benchmarks.md.
 *
 *   npx tsx scripts/bench-clocks.ts
 */
import { loadavg, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { Redis } from 'ioredis';
import { serverClockFor } from '../src/stores/clock-offset/server-clock.ts';
import { cleanupAll } from '../src/process/cleanup.ts';
import { loadOracle } from '../src/run/registry.ts';
import { runOracle } from '../src/run/run-oracle.ts';
import { startStore } from '../src/families/start-store.ts';

const DATE_CALLS = 2_000_000;
const REDIS_ROUND_TRIPS = 3000;

async function dateNowNs(env: Record<string, string>): Promise<number> {
  const script = `let x = 0; const n = ${DATE_CALLS}; const t = process.hrtime.bigint(); for (let i = 0; i < n; i++) x += Date.now() & 1; console.log(Number(process.hrtime.bigint() - t) / n, x)`;
  const { stdout } = await execa(process.execPath, ['-e', script], { env, extendEnv: true });
  return Number(stdout.split(' ')[0]);
}

async function redisSetUs(clockOffsetMs: number | undefined): Promise<number> {
  const store = await startStore({ kind: 'redis', ...(clockOffsetMs === undefined ? {} : { clockOffsetMs }) }, 'local');
  const redis = new Redis(store.url);
  try {
    for (let i = 0; i < 300; i++) await redis.set('bench', String(i), 'PX', 10_000);
    const samples: number[] = [];
    for (let i = 0; i < REDIS_ROUND_TRIPS; i++) {
      const began = performance.now();
      await redis.set('bench', String(i), 'PX', 10_000);
      samples.push(performance.now() - began);
    }
    samples.sort((a, b) => a - b);
    return samples[Math.floor(samples.length / 2)]! * 1000;
  } finally {
    redis.disconnect();
    await store.stop();
  }
}

async function libraryOverhead(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-clocks-'));
  try {
    const clock = (await serverClockFor({ kind: 'redis', clockOffsetMs: 0 }, dir))!;
    const plain = await dateNowNs({});
    const preloaded = await dateNowNs(clock.env);
    const redisPlain = await redisSetUs(undefined);
    const redisPreloaded = await redisSetUs(0);
    return [
      '| case | without LD_PRELOAD | with clock-offset.so |',
      '|---|---|---|',
      `| Node Date.now(), ns per call (${DATE_CALLS} calls) | ${plain.toFixed(0)} | ${preloaded.toFixed(0)} |`,
      `| redis SET … PX, median µs per round trip (${REDIS_ROUND_TRIPS}, ioredis) | ${redisPlain.toFixed(0)} | ${redisPreloaded.toFixed(0)} |`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function oracleTimes(): Promise<string[]> {
  const rows = ['| oracle | target | params | verdict | wall ms | scenario ms |', '|---|---|---|---|---|---|'];
  const days: string[] = [
    '| target | day | fires | advances | real ms for the simulated day | store clock minus simulated, max ms |',
    '|---|---|---|---|---|---|',
  ];
  for (const id of ['V316', 'V317', 'V318', 'V319']) {
    const oracle = await loadOracle(id);
    for (const reference of oracle.references) {
      // V319: every reference on all four default days, so each simulated day is timed.
      const params = id === 'V319' ? {} : (reference.params ?? {});
      const record = await runOracle({ oracle: id, target: reference.target, params });
      rows.push(
        `| ${id} | ${reference.target} | ${JSON.stringify(params)} | ${record.verdict} | ${record.timing.wallMs.toFixed(0)} | ${record.timing.scenarioMs.toFixed(0)} |`,
      );
      if (record.error) console.error(`${id} ${reference.target}: ${record.error}`);
      if (id !== 'V319') continue;
      for (const event of record.history.filter(
        (e) => e.kind === 'note' && String(e.detail.text).startsWith('simulated '),
      )) {
        const fires = (event.detail.fires as unknown[]).length;
        days.push(
          `| ${reference.target} | ${String(event.detail.text).replace('simulated ', '')} | ${fires} | ${String(event.detail.advances)} | ${String(event.detail.wallMs)} | ${String(event.detail.storeSkewMaxMs)} |`,
        );
      }
    }
  }
  return [...rows, '', ...days];
}

async function main(): Promise<void> {
  const load = () => loadavg()[0]!.toFixed(1);
  const out = [
    `Load average at start: ${load()}`,
    '',
    ...(await libraryOverhead()),
    '',
    ...(await oracleTimes()),
    '',
    `Load average at end: ${load()}`,
  ];
  console.log(out.join('\n'));
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => cleanupAll());
