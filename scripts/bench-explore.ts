/**
 * Speed of --explore (issues 8 and 23): per oracle, one exploration of a reference target through
 * the CLI (`node bin/lock-oracles.js <ID> --target T --explore --json --no-report`; points at least
 * the cores at once, more while the CPU has room): its verdict, points run, how many were not
 * applicable, INCONCLUSIVE (and played again alone), the most points at once, the exploration's wall
 * (trace + every point), wall per point, the whole command's wall, its CPU (user + sys of the command
 * and the holders and stores it waited for, /usr/bin/time), and the load average (1 min) before and
 * after, and of that CPU the exploring process's own (`exploration.harnessCpuMs`: the rest is the
 * holders' and the stores'). Prints Markdown table rows for docs/benchmarks.md, then the INCONCLUSIVE share over the rows.
 * Usage: npx tsx scripts/bench-explore.ts [V312:target[:store][:--name=value ...] ...] [--good] [--first-fail]
 * (e.g. V313:targets/redis/ioredis/lease-no-renewal.ts:redis:--topology=replicated:2)
 * (--good: every explored good reference, test/explore-references.ts's list; any other argument
 * starting with -- is passed to every exploration).
 */
import { loadavg } from 'node:os';
import { execa } from 'execa';
import { exploreReferences } from '../src/oracle/explore-spec.ts';
import { loadAllOracles } from '../src/run/registry.ts';

const DEFAULT = [
  'V312:targets/redis/ioredis/job-get-then-set.ts',
  'V312:targets/postgres/job-ignores-try-lock.ts:postgres',
  'V315:targets/redis/leader/cached-flag.ts',
  'V315:targets/redis/leader/cached-flag-fenced.ts',
  'V315:targets/postgres/leader/cached-flag.ts:postgres',
  // --contenders 3: B's election points too (B held while C leads)
  'V315:targets/redis/leader/elect-set-nx.ts:redis:--contenders=3:--ttl=2000',
  'V313:targets/redis/ioredis/stale-takeover-job-del.ts:redis:--contenders=3:--ttl=1000:--stepMs=100',
  'V317:targets/clock/redis-queue-app-clock-expiry.ts:redis',
  'V317:targets/clock/lease-app-clock-expiry.ts:postgres',
];
const args = process.argv.slice(2);
const flags = args.filter((a) => a.startsWith('--') && a !== '--good');
const named = args.filter((a) => !a.startsWith('--'));
const rows = args.includes('--good') ? await goodReferences() : named.length ? named : DEFAULT;

/** Every explored good reference, as ORACLE:target[:store] plus its parameters (--k=v). */
async function goodReferences(): Promise<string[]> {
  const oracles = await loadAllOracles();
  return oracles.flatMap((oracle) =>
    exploreReferences(oracle)
      .filter((r) => r.expect === 'PASS')
      .map(
        (r) =>
          `${oracle.id}:${r.target}:${r.store ?? oracle.stores[0]}` +
          Object.entries({ ...r.params, ...(r.topology ? { topology: r.topology } : {}) })
            .map(([k, v]) => `:--${k}=${v}`)
            .join(''),
      ),
  );
}
const load = () => loadavg()[0]!.toFixed(1);

console.log(
  `| oracle | target | store | verdict | points${flags.length ? ` (${flags.join(' ')})` : ''} | not applicable | INCONCLUSIVE (played again alone) | most at once | exploration wall ms | wall / point ms | command wall ms | CPU s | of it the harness's s | load before → after |`,
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
let allPoints = 0;
let allInconclusive = 0;
for (const row of rows) {
  // ORACLE:target[:store] then :--name=value options (a value may hold a colon: --topology=replicated:2).
  const [head, ...options] = row.split(':--');
  const [oracle, target, store] = head!.split(':') as [string, string, string | undefined];
  const params = options.flatMap((o) => {
    const [name, ...value] = o.split('=');
    return [`--${name}`, value.join('=')];
  });
  const before = load();
  const began = performance.now();
  const cli = [
    'node',
    'bin/lock-oracles.js',
    oracle,
    '--target',
    target,
    ...(store ? ['--store', store] : []),
    ...params,
    '--explore',
    ...flags,
    '--json',
    '--no-report',
  ];
  const run = await execa('/usr/bin/time', ['-f', 'cpu %U %S', ...cli], { reject: false });
  const commandMs = Math.round(performance.now() - began);
  if (!run.stdout.trim().startsWith('{')) {
    console.log(
      `| ${oracle} | ${target} | ${store ?? 'redis'} | no record: ${run.stderr.split('\n').slice(-3).join(' ')} |`,
    );
    continue;
  }
  const record = JSON.parse(run.stdout) as {
    verdict: string;
    exploration: {
      points: Array<{ verdict: string; notApplicable?: string; crowded?: string; label: string; reason: string }>;
      notStarted?: unknown[];
      wallMs: number;
      jobs: number;
      harnessCpuMs?: number;
    };
  };
  const x = record.exploration;
  const inconclusive = x.points.filter((p) => p.verdict === 'INCONCLUSIVE' && !p.notApplicable);
  const crowded = x.points.filter((p) => p.crowded).length;
  allPoints += x.points.length;
  allInconclusive += inconclusive.length;
  for (const p of inconclusive) console.error(`${oracle} ${target}: INCONCLUSIVE ${p.label}: ${p.reason}`);
  const [user, sys] = (/cpu ([\d.]+) ([\d.]+)\s*$/.exec(run.stderr) ?? []).slice(1).map(Number);
  const cpu = user !== undefined && sys !== undefined ? (user + sys).toFixed(1) : '?';
  const points = `${x.points.length}${x.notStarted?.length ? ` (+${x.notStarted.length} not started)` : ''}`;
  console.log(
    `| ${oracle} | ${target.replace(/^targets\//, '')}${params.length ? ` ${params.join(' ')}` : ''} | ${store ?? 'redis'} | ${record.verdict} | ${points} | ${x.points.filter((p) => p.notApplicable).length} | ${inconclusive.length} (${crowded}) | ${x.jobs} | ${x.wallMs} | ${Math.round(x.wallMs / Math.max(1, x.points.length))} | ${commandMs} | ${cpu} | ${x.harnessCpuMs === undefined ? '?' : (x.harnessCpuMs / 1000).toFixed(1)} | ${before} → ${load()} |`,
  );
}
console.log(
  `\nINCONCLUSIVE points: ${allInconclusive} of ${allPoints} (${((100 * allInconclusive) / Math.max(1, allPoints)).toFixed(1)} %)`,
);
