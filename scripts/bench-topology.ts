/**
 * Start-up time of each --topology, on local redis-server processes and with every node in its own
 * container (--runtime container, when a Docker engine answers: bash scripts/container-engine.sh):
 * every node answering, replicas in sync, Sentinels seeing the replicas; per topology and per data
 * node. Then, per runtime, how long a node restarted at once (SHUTDOWN NOSAVE, no delay) is down,
 * and the wall time of one V313 --variant failover run (the references' --ttl 2000); then the first
 * V313 run of each Redlock fault on redlock:5 (local) against its inherent wait (what the scenario
 * must wait by construction: a lease lapsing, a master kept down). Prints Markdown for
 * docs/benchmarks.md.
 *
 *   npx tsx scripts/bench-topology.ts [repetitions, default 3]
 */
import { loadavg } from 'node:os';
import { startStore, type RuntimeChoice } from '../src/families/start-store.ts';
import { dockerSocketPath, engineAnswers } from '../src/stores/engine-socket.ts';
import { parseTopology } from '../src/stores/topology.ts';
import { runOracle } from '../src/run/run-oracle.ts';

const repetitions = Number(process.argv[2] ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const socket = dockerSocketPath();
const runtimes: RuntimeChoice[] =
  socket !== undefined && (await engineAnswers(socket, 1000)) ? ['local', 'container'] : ['local'];

console.log(`load average at start: ${load()}${runtimes.length === 1 ? ' (no Docker engine: local only)' : ''}\n`);
console.log('| topology | runtime | nodes (data + Sentinels) | start, median ms | per data node, ms |');
console.log('|---|---|---|---|---|');
for (const shape of ['single', 'replicated:1', 'replicated:2', 'sentinel:1', 'redlock:5']) {
  for (const runtime of runtimes) {
    const times: number[] = [];
    let data = 1;
    let sentinels = 0;
    for (let i = 0; i < repetitions; i++) {
      const store = await startStore({ kind: 'redis', topology: parseTopology(shape) }, runtime);
      times.push(store.startMs);
      data = store.topology?.nodes.filter((n) => n.role === 'master' || n.role === 'replica').length ?? 1;
      sentinels = store.topology?.nodes.filter((n) => n.role === 'sentinel').length ?? 0;
      await store.stop();
    }
    const ms = median(times);
    console.log(`| ${shape} | ${runtime} | ${data} + ${sentinels} | ${ms.toFixed(0)} | ${(ms / data).toFixed(0)} |`);
  }
}

console.log(
  '\n| runtime | redlock:3 node restarted at once: down, median ms | V313 failover run | wall ms | store ms | scenario ms |',
);
console.log('|---|---|---|---|---|---|');
for (const runtime of runtimes) {
  const store = await startStore({ kind: 'redis', topology: parseTopology('redlock:3') }, runtime);
  const down: number[] = [];
  try {
    for (let i = 0; i < repetitions; i++) {
      const { stoppedAt, startedAt } = await store.topology!.restart('m1', 0, () => performance.now());
      down.push(startedAt - stoppedAt);
    }
  } finally {
    await store.stop();
  }
  const run = await runOracle({
    oracle: 'V313',
    target: 'targets/redis/ioredis/lease-no-renewal.ts',
    store: 'redis',
    topology: 'replicated:2',
    runtime,
    params: { variant: 'failover', ttl: 2000, timeout: 8000 }, // the references' (FAILOVER_PARAMS in oracles/V313)
  });
  console.log(
    `| ${runtime} | ${median(down).toFixed(0)} | ${run.verdict} | ${run.timing.wallMs.toFixed(0)} | ${run.timing.storeStartMs.toFixed(0)} | ${run.timing.scenarioMs.toFixed(0)} |`,
  );
}
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
console.log(`\nload average at the end: ${load()}`);
