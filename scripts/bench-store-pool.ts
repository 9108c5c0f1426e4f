/**
 * What a batch's store pool (src/run/store-pool.ts) saves a run: the server a run needs, got and
 * given back `rounds` times in a row, from a pool (after the first: the family's reset and its
 * checks) and without one (a server started and stopped each time), alternating one by one so load
 * shifts hit both alike. Wall ms per run from this process, CPU ms per run from /proc (this process
 * and the servers it reaped: the pooled server's when the pool is closed). Prints a Markdown table for docs/benchmarks.md.
 *
 *   npx tsx scripts/bench-store-pool.ts [rounds, default 20] [store kind, default redis]
 */
import { loadavg } from 'node:os';
import { readFileSync } from 'node:fs';
import { StorePool } from '../src/run/store-pool.ts';
import { startStore } from '../src/families/start-store.ts';
import { cleanupAll } from '../src/process/cleanup.ts';
import type { StoreKind } from '../src/stores/types.ts';

const ROUNDS = Number(process.argv[2] ?? 20);
const KIND = (process.argv[3] ?? 'redis') as StoreKind;
const TICK_MS = 10; // USER_HZ 100

/** CPU ms of this process and its reaped children so far (utime, stime, cutime, cstime of /proc/self/stat). */
function cpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) * TICK_MS;
}

const pool = new StorePool();
const fresh = { wall: 0, cpu: 0 };
const pooled = { wall: 0, cpu: 0 };
const load = loadavg()[0]!.toFixed(1);
const measure = async (into: { wall: number; cpu: number }, fromPool: boolean) => {
  const cpu = cpuMs();
  const began = performance.now();
  if (fromPool) await (await pool.borrow({ kind: KIND }, undefined)).giveBack('finished');
  else await (await startStore({ kind: KIND })).stop();
  into.wall += performance.now() - began;
  into.cpu += cpuMs() - cpu;
};
try {
  await measure(pooled, true); // the pool's first server, not counted
  pooled.wall = pooled.cpu = 0;
  for (let i = 0; i < ROUNDS; i++) {
    await measure(fresh, false);
    await measure(pooled, true);
  }
  if (pool.discarded().length) throw new Error(`the pool stopped servers: ${JSON.stringify(pool.discarded())}`);
  // The pooled server's own CPU (its resets) is counted once it is reaped, at the pool's close.
  const cpu = cpuMs();
  await pool.close();
  pooled.cpu += cpuMs() - cpu;
} finally {
  await pool.close();
  await cleanupAll();
}
const row = (what: string, m: { wall: number; cpu: number }) =>
  `| ${KIND}, ${what} | ${(m.wall / ROUNDS).toFixed(1)} | ${(m.cpu / ROUNDS).toFixed(1)} |`;
console.log(`${ROUNDS} rounds each, alternating, load ${load} → ${loadavg()[0]!.toFixed(1)}\n`);
console.log("| a run's server | wall ms a run | CPU ms a run |\n|---|---|---|");
console.log(row('started and stopped (no pool)', fresh));
console.log(row('borrowed and given back reset (pool)', pooled));
