/**
 * Redis start time, local process vs container (testcontainers on a local dockerd, host network),
 * each to its first answered INFO, plus the one-off cost of importing testcontainers and V310's
 * wall time per runtime. Needs an engine and the image: bash scripts/container-engine.sh.
 * Prints Markdown for docs/benchmarks.md.
 *
 *   npx tsx scripts/bench-container.ts [repetitions, default 5]
 */
import { loadavg } from 'node:os';
import { cleanupAll } from '../src/cleanup.ts';
import { runOracle } from '../src/run-oracle.ts';
import { startStore, type RuntimeChoice } from '../src/stores/start-store.ts';

const REPETITIONS = Number(process.argv[2] ?? 5);
process.env.LOCK_ORACLES_REDIS_IMAGE ??= 'lock-oracles/redis-server:local';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const ms = (x: number) => x.toFixed(0);

async function main(): Promise<void> {
  const importBegan = performance.now();
  await import('testcontainers');
  const importMs = performance.now() - importBegan;

  const starts: Record<'local' | 'container', number[]> = { local: [], container: [] };
  const stops: Record<'local' | 'container', number[]> = { local: [], container: [] };
  for (let i = 0; i < REPETITIONS; i++) {
    for (const runtime of ['local', 'container'] as const) {
      const store = await startStore({ kind: 'redis' }, runtime);
      starts[runtime].push(store.startMs);
      const stopBegan = performance.now();
      await store.stop();
      stops[runtime].push(performance.now() - stopBegan);
    }
  }
  const rows = [
    `Load average ${loadavg().map((l) => l.toFixed(1)).join(' / ')}; ${REPETITIONS} repetitions, medians in ms; importing testcontainers (once per process, container runs only): ${ms(importMs)} ms.`,
    '',
    '| redis store | start to first INFO (startMs) | stop |',
    '|---|---|---|',
    `| local process | ${ms(median(starts.local))} | ${ms(median(stops.local))} |`,
    `| container (${process.env.LOCK_ORACLES_REDIS_IMAGE}) | ${ms(median(starts.container))} | ${ms(median(stops.container))} |`,
    '',
    '| V310 run | runtime | verdict | wall | store start | holders ready | scenario |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const target of ['release-bare-del', 'lock-correct']) {
    for (const runtime of ['local', 'container'] as RuntimeChoice[]) {
      const r = await runOracle({ oracle: 'V310', target: `targets/redis/ioredis/${target}.ts`, runtime });
      const t = r.timing;
      rows.push(`| ${target} | ${runtime} | ${r.verdict} | ${ms(t.wallMs)} | ${ms(t.storeStartMs)} | ${ms(t.holdersReadyMs)} | ${ms(t.scenarioMs)} |`);
    }
  }
  process.stdout.write(`${rows.join('\n')}\n`);
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`bench-container: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => cleanupAll());
