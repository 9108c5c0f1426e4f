/**
 * Speed of --explore (issue 8): per oracle, one exploration of a reference target through the CLI
 * (`node bin/lock-oracles.js <ID> --target T --explore --json --no-report`, --jobs = the cores):
 * its verdict, points run, the exploration's wall (trace + every point), wall per point, the whole
 * command's wall, and the load average (1 min) before and after. Prints Markdown table rows for
 * docs/benchmarks.md. Usage: npx tsx scripts/bench-explore.ts [V312:target[:store] ...]
 */
import { loadavg } from 'node:os';
import { execa } from 'execa';

const DEFAULT = [
  'V312:targets/redis/ioredis/job-get-then-set.ts',
  'V312:targets/postgres/job-ignores-try-lock.ts:postgres',
  'V315:targets/redis/leader/cached-flag.ts',
  'V315:targets/redis/leader/cached-flag-fenced.ts',
  'V315:targets/postgres/leader/cached-flag.ts:postgres',
  'V317:targets/clock/redis-queue-app-clock-expiry.ts:redis',
  'V317:targets/clock/lease-app-clock-expiry.ts:postgres',
];
const rows = process.argv.slice(2).length ? process.argv.slice(2) : DEFAULT;
const load = () => loadavg()[0]!.toFixed(1);

console.log('| oracle | target | store | verdict | points | exploration wall ms | wall / point ms | command wall ms | load before → after |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const row of rows) {
  const [oracle, target, store] = row.split(':') as [string, string, string | undefined];
  const before = load();
  const began = performance.now();
  const run = await execa('node', ['bin/lock-oracles.js', oracle, '--target', target, ...(store ? ['--store', store] : []), '--explore', '--json', '--no-report'], { reject: false, stderr: 'ignore' });
  const commandMs = Math.round(performance.now() - began);
  const record = JSON.parse(run.stdout) as { verdict: string; exploration: { points: unknown[]; wallMs: number } };
  const x = record.exploration;
  console.log(
    `| ${oracle} | ${target.replace(/^targets\//, '')} | ${store ?? 'redis'} | ${record.verdict} | ${x.points.length} | ${x.wallMs} | ${Math.round(x.wallMs / Math.max(1, x.points.length))} | ${commandMs} | ${before} → ${load()} |`,
  );
}
