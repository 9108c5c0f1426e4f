/**
 * Start-up time of each --topology on local redis-server processes (every node answering, replicas
 * in sync, Sentinels seeing the replicas), per topology and per data node, plus the wall time of
 * one V313 --variant failover run and of the first V313 run of each Redlock fault on redlock:5
 * against its inherent wait (what the scenario must wait by construction: a lease lapsing, a
 * master kept down). Prints Markdown for docs/benchmarks.md.
 *
 *   npx tsx scripts/bench-topology.ts [repetitions, default 3]
 */
import { loadavg } from 'node:os';
import { startStore } from '../src/families/start-store.ts';
import { parseTopology } from '../src/stores/topology.ts';
import { runOracle } from '../src/run/run-oracle.ts';

const repetitions = Number(process.argv[2] ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(
  `load average at start: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}\n`,
);
console.log('| topology | nodes (data + Sentinels) | start, median ms | per data node, ms |');
console.log('|---|---|---|---|');
for (const shape of ['single', 'replicated:1', 'replicated:2', 'sentinel:1', 'redlock:5']) {
  const times: number[] = [];
  let data = 1;
  let sentinels = 0;
  for (let i = 0; i < repetitions; i++) {
    const store = await startStore({ kind: 'redis', topology: parseTopology(shape) });
    times.push(store.startMs);
    data = store.topology?.nodes.filter((n) => n.role === 'master' || n.role === 'replica').length ?? 1;
    sentinels = store.topology?.nodes.filter((n) => n.role === 'sentinel').length ?? 0;
    await store.stop();
  }
  const ms = median(times);
  console.log(`| ${shape} | ${data} + ${sentinels} | ${ms.toFixed(0)} | ${(ms / data).toFixed(0)} |`);
}
console.log('\n(redlock:5 also starts its counter node c1, counted in its start time, not in its data nodes.)');
const run = await runOracle({
  oracle: 'V313',
  target: 'targets/redis/ioredis/lease-no-renewal.ts',
  store: 'redis',
  topology: 'replicated:2',
  params: { variant: 'failover' },
});
console.log(
  `\nV313 --variant failover --topology replicated:2 on lease-no-renewal.ts: ${run.verdict}, wall ${run.timing.wallMs.toFixed(0)} ms (store ${run.timing.storeStartMs.toFixed(0)} ms, scenario ${run.timing.scenarioMs.toFixed(0)} ms); load average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);

// The first V313 run of each Redlock fault on five masters, each in a fresh process state (the
// store and holders cold), against what it must wait by construction.
const redlockRuns: Array<{ target: string; params: Record<string, string | number>; inherentMs: number; why: string }> =
  [
    { target: 'redlock-acquire.ts', params: { variant: 'pause' }, inherentMs: 300, why: "A's 300 ms lease lapsing" },
    {
      target: 'redlock-acquire.ts',
      params: { variant: 'pause-in-acquire' },
      inherentMs: 300,
      why: "A's 300 ms keys lapsing",
    },
    {
      target: 'redlock-acquire.ts',
      params: { variant: 'quorum', nodeFault: 'restart', ttl: 2000, timeout: 8000 },
      inherentMs: 0,
      why: 'none beyond the restart itself',
    },
    {
      target: 'redlock-acquire.ts',
      params: { variant: 'quorum', nodeFault: 'restart-late', ttl: 2000, timeout: 8000 },
      inherentMs: 2500,
      why: 'the master kept down 2500 ms',
    },
  ];
console.log(
  '\n| V313 on redlock:5 | verdict | inherent wait | wall ms | store start ms | scenario ms | wall − inherent |',
);
console.log('|---|---|---|---|---|---|---|');
for (const { target, params, inherentMs, why } of redlockRuns) {
  const run = await runOracle({
    oracle: 'V313',
    target: `targets/redis/redlock-quorum/${target}`,
    store: 'redis',
    topology: 'redlock:5',
    params,
  });
  const { wallMs, storeStartMs, scenarioMs } = run.timing;
  const shape = Object.entries(params)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  console.log(
    `| ${target} ${shape} | ${run.verdict} | ${inherentMs} ms (${why}) | ${wallMs.toFixed(0)} | ${storeStartMs.toFixed(0)} | ${scenarioMs.toFixed(0)} | ${(wallMs - inherentMs).toFixed(0)} |`,
  );
}
console.log(
  `\nload average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
