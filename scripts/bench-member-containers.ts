/**
 * Start-up time of a coordination service's members, `--topology etcd:3` and `zookeeper:3`, as
 * local processes and with every member in its own container (--runtime container): the
 * `startMs` a run reports (from the start request to every member answering, and on etcd a leader
 * elected), then the stop. Runs alternate between the runtimes so a change of load hits both.
 * Prints Markdown for docs/benchmarks.md.
 *
 *   npx tsx scripts/bench-member-containers.ts [repetitions, default 3]
 */
import { loadavg } from 'node:os';
import { startStore, type RuntimeChoice } from '../src/families/start-store.ts';
import { parseTopology } from '../src/stores/topology.ts';

const repetitions = Number(process.argv[2] ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () => loadavg()[0]!.toFixed(1);

console.log(
  '| topology | runtime | store start, ms (each run) | median | stop, ms (median) | load (1 min) at each start |',
);
console.log('|---|---|---|---|---|---|');
for (const kind of ['etcd', 'zookeeper'] as const) {
  const runs = new Map<RuntimeChoice, { start: number[]; stop: number[]; load: string[] }>();
  for (let i = 0; i < repetitions; i++) {
    for (const runtime of ['local', 'container'] as const) {
      const row = runs.get(runtime) ?? { start: [], stop: [], load: [] };
      runs.set(runtime, row);
      row.load.push(load());
      const store = await startStore({ kind, topology: parseTopology(`${kind}:3`) }, runtime);
      row.start.push(Math.round(store.startMs));
      const stopping = performance.now();
      await store.stop();
      row.stop.push(Math.round(performance.now() - stopping));
    }
  }
  for (const [runtime, row] of runs)
    console.log(
      `| ${kind}:3 | ${runtime} | ${row.start.join(', ')} | ${median(row.start)} | ${median(row.stop)} | ${row.load.join(', ')} |`,
    );
}
