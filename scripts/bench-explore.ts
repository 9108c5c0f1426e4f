/**
 * Speed of --explore (issue 8): per oracle, one exploration of a reference target through the CLI
 * (`node bin/lock-oracles.js <ID> --target T --explore --json --no-report`, --jobs = the cores):
 * its verdict, points run, the exploration's wall (trace + every point), wall per point, the whole
 * command's wall, its CPU (user + sys of the command and the holders and stores it waited for,
 * /usr/bin/time), and the load average (1 min) before and after. Prints Markdown table rows for
 * docs/benchmarks.md. Usage: npx tsx scripts/bench-explore.ts [V312:target[:store] ...] [--first-fail]
 * (an argument starting with -- is passed to every exploration).
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
const args = process.argv.slice(2);
const flags = args.filter((a) => a.startsWith('--'));
const rows = args.filter((a) => !a.startsWith('--')).length ? args.filter((a) => !a.startsWith('--')) : DEFAULT;
const load = () => loadavg()[0]!.toFixed(1);

console.log(
  `| oracle | target | store | verdict | points${flags.length ? ` (${flags.join(' ')})` : ''} | exploration wall ms | wall / point ms | command wall ms | CPU s | load before → after |`,
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const row of rows) {
  const [oracle, target, store] = row.split(':') as [string, string, string | undefined];
  const before = load();
  const began = performance.now();
  const cli = [
    'node',
    'bin/lock-oracles.js',
    oracle,
    '--target',
    target,
    ...(store ? ['--store', store] : []),
    '--explore',
    ...flags,
    '--json',
    '--no-report',
  ];
  const run = await execa('/usr/bin/time', ['-f', 'cpu %U %S', ...cli], { reject: false });
  const commandMs = Math.round(performance.now() - began);
  const record = JSON.parse(run.stdout) as {
    verdict: string;
    exploration: { points: unknown[]; notStarted?: unknown[]; wallMs: number };
  };
  const x = record.exploration;
  const [user, sys] = (/cpu ([\d.]+) ([\d.]+)\s*$/.exec(run.stderr) ?? []).slice(1).map(Number);
  const cpu = user !== undefined && sys !== undefined ? (user + sys).toFixed(1) : '?';
  const points = `${x.points.length}${x.notStarted?.length ? ` (+${x.notStarted.length} not started)` : ''}`;
  console.log(
    `| ${oracle} | ${target.replace(/^targets\//, '')} | ${store ?? 'redis'} | ${record.verdict} | ${points} | ${x.wallMs} | ${Math.round(x.wallMs / Math.max(1, x.points.length))} | ${commandMs} | ${cpu} | ${before} → ${load()} |`,
  );
}
