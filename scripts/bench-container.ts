/**
 * Start time of each store, local process vs container (testcontainers on a local dockerd, host
 * network), each to its first answered version query, plus one reference run's wall time per store
 * per runtime. Needs an engine and the images: bash scripts/container-engine.sh.
 * Prints Markdown for docs/benchmarks.md.
 *
 *   npx tsx scripts/bench-container.ts [repetitions, default 5]
 */
import { loadavg } from 'node:os';
import { cleanupAll } from '../src/process/cleanup.ts';
import { runOracle, type RunRequest } from '../src/run/run-oracle.ts';
import { startStore } from '../src/families/start-store.ts';
import type { StoreKind } from '../src/stores/types.ts';

const REPETITIONS = Number(process.argv[2] ?? 5);
const RUNTIMES = ['local', 'container'] as const;
/** The stores with a container (the fs store is a directory on this machine, a cluster the target's own nodes: they have none). */
type ContainedKind = Exclude<StoreKind, 'fs' | 'cluster' | 'zookeeper'>;
const KINDS: ContainedKind[] = ['redis', 'valkey', 'postgres', 'pgbouncer', 'etcd'];
/** One reference run per store (the same on both runtimes). */
const RUNS: Record<ContainedKind, Omit<RunRequest, 'runtime'>> = {
  redis: { oracle: 'V310', target: 'targets/redis/ioredis/release-bare-del.ts', store: 'redis' },
  valkey: { oracle: 'V310', target: 'targets/redis/ioredis/release-bare-del.ts', store: 'valkey' },
  postgres: { oracle: 'V312', target: 'targets/postgres/job-ignores-try-lock.ts', store: 'postgres' },
  pgbouncer: {
    oracle: 'V314',
    target: 'targets/postgres/advisory-xact-lock.ts',
    store: 'pgbouncer',
    params: { scenario: 'pooler' },
  },
  etcd: { oracle: 'V311', target: 'targets/etcd/lock-no-lease.ts', store: 'etcd', params: { ttl: 1000 } },
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const ms = (x: number) => x.toFixed(0);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

async function main(): Promise<void> {
  const importBegan = performance.now();
  await import('testcontainers');
  const importMs = performance.now() - importBegan;
  const loadBefore = load();
  const rows = [
    '| store | runtime | start to first answer (startMs) | stop | reference run | verdict | wall | store start | scenario |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const kind of KINDS) {
    for (const runtime of RUNTIMES) {
      const starts: number[] = [];
      const stops: number[] = [];
      for (let i = 0; i < REPETITIONS; i++) {
        const store = await startStore({ kind }, runtime);
        starts.push(store.startMs);
        const stopBegan = performance.now();
        await store.stop();
        stops.push(performance.now() - stopBegan);
      }
      const run = RUNS[kind];
      const r = await runOracle({ ...run, runtime });
      const t = r.timing;
      rows.push(
        `| ${kind} ${r.store?.version ?? ''} | ${runtime} | ${ms(median(starts))} | ${ms(median(stops))} | ${run.oracle} ${run.target.split('/').pop()} | ${r.verdict} | ${ms(t.wallMs)} | ${ms(t.storeStartMs)} | ${ms(t.scenarioMs)} |`,
      );
    }
  }
  process.stdout.write(
    `Load average before ${loadBefore}, after ${load()}; ${REPETITIONS} starts per row, medians in ms; importing testcontainers (once per process, container runs only): ${ms(importMs)} ms.\n\n${rows.join('\n')}\n`,
  );
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`bench-container: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => cleanupAll());
