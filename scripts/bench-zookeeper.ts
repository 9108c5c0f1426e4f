/**
 * The ZooKeeper store's start: how long the JVM takes from spawn until the server answers `srvr`
 * (the recipe's startMs), over several starts, with the machine's load beside it. Usage:
 *   npx tsx scripts/bench-zookeeper.ts [starts=5]
 * Prints one markdown row for docs/benchmarks.md.
 */
import { loadavg } from 'node:os';
import { startStore } from '../src/families/start-store.ts';

const starts = Number(process.argv[2] ?? 5);
const times: number[] = [];
for (let i = 0; i < starts; i++) {
  const store = await startStore({ kind: 'zookeeper' }, 'local');
  times.push(store.startMs);
  await store.stop();
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)]!;
console.log(
  `| ZooKeeper 3.8.0 (local JVM) | ${starts} | ${Math.round(times[0]!)} | ${Math.round(median)} | ${Math.round(times.at(-1)!)} | ${loadavg()[0]!.toFixed(1)} |`,
);
