/**
 * Benchmark of the harness core (issue 2): redis-server start time, and the wall time of each
 * Redis oracle on one bad and one good reference target (median of N), split into store start,
 * holder start, scenario time, and the overhead beyond the scenario's inherent waits.
 * Usage: npm run bench [-- --runs 5]. Prints a Markdown table for docs/benchmarks.md.
 */
import { parseArgs } from 'node:util';
import { cpus } from 'node:os';
import { runOracle } from '../src/run-oracle.ts';
import { startLocalStore } from '../src/stores/local-runtime.ts';
import { cleanupAll } from '../src/cleanup.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// The waits a scenario cannot avoid: the TTL that must lapse (V310, V311, V313); on a V311 FAIL
// B goes on trying until TTL + grace; V312 has none.
const cases = [
  { oracle: 'V310', bad: 'targets/redis/ioredis/release-bare-del.ts', good: 'targets/redis/ioredis/lock-correct.ts', inherent: [200, 200] },
  { oracle: 'V311', bad: 'targets/redis/ioredis/acquire-no-ttl.ts', good: 'targets/redis/ioredis/lock-correct.ts', inherent: [300 + 300, 300] },
  { oracle: 'V312', bad: 'targets/redis/ioredis/job-ignores-acquire.ts', good: 'targets/redis/ioredis/job-checks-acquire.ts', inherent: [0, 0] },
  { oracle: 'V313', bad: 'targets/redis/ioredis/lease-no-renewal.ts', good: 'targets/redis/ioredis/lease-renew-checked.ts', inherent: [300, 300] },
];

const starts: number[] = [];
for (let i = 0; i < 20; i++) {
  const store = await startLocalStore({ kind: 'redis' });
  starts.push(store.startMs);
  await store.stop();
}
console.log(`machine: ${cpus().length} cores, node ${process.version}; median of ${runs} runs each\n`);
console.log(`redis-server start to first answer: median ${median(starts).toFixed(1)} ms (min ${Math.min(...starts).toFixed(1)}, max ${Math.max(...starts).toFixed(1)}, 20 starts)\n`);
console.log('| oracle | target | verdict | wall ms | store start ms | holders ready ms | scenario ms | inherent wait ms | overhead ms |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const c of cases) {
  for (const [i, target] of [c.bad, c.good].entries()) {
    const inherent = c.inherent[i]!;
    const records = [];
    for (let i = 0; i < runs; i++) records.push(await runOracle({ oracle: c.oracle, target }));
    const wall = median(records.map((r) => r.timing.wallMs));
    const verdicts = [...new Set(records.map((r) => r.verdict))].join('/');
    console.log(
      `| ${c.oracle} | ${target.replace('targets/redis/', '')} | ${verdicts} | ${wall.toFixed(0)} | ${median(records.map((r) => r.timing.storeStartMs)).toFixed(0)} | ` +
        `${median(records.map((r) => r.timing.holdersReadyMs)).toFixed(0)} | ${median(records.map((r) => r.timing.scenarioMs)).toFixed(0)} | ${inherent} | ${(wall - inherent).toFixed(0)} |`,
    );
  }
}
await cleanupAll();
