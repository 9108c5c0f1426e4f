/**
 * A V310 first run on --store fs against its inherent wait (issue 24): `node bin/lock-oracles.js
 * V310 --target <t> --store fs --json` in a fresh process, --repeat times in a row, each row with the
 * harness's own timing (wall, store start, holders ready, scenario), the scenario's excess over the
 * inherent wait (A's TTL: A is stopped until its lock goes stale and B takes it) and the load
 * average (1 min) before the run. Prints a markdown table for docs/benchmarks.md.
 * Usage: npx tsx scripts/bench-fs.ts [--repeat 5] [--target targets/fs/mkdir-bare-rmdir.ts] [--ttl 200]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { execa } from 'execa';

const { values } = parseArgs({
  options: {
    repeat: { type: 'string', default: '5' },
    target: { type: 'string', default: 'targets/fs/mkdir-bare-rmdir.ts' },
    ttl: { type: 'string', default: '200' },
  },
});
const ttl = Number(values.ttl);
interface Timing {
  wallMs: number;
  storeStartMs: number;
  holdersReadyMs: number;
  scenarioMs: number;
}

console.log(`V310 --store fs, ${values.target}, --ttl ${ttl} (inherent wait ${ttl} ms)\n`);
console.log(
  '| run | verdict | load (1 min) | wall ms | store start ms | holders ready ms | scenario ms | scenario − inherent ms |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (let run = 1; run <= Number(values.repeat); run++) {
  const load = loadavg()[0]!.toFixed(1);
  const args = [
    'V310',
    '--target',
    values.target,
    '--store',
    'fs',
    '--ttl',
    String(ttl),
    '--json',
    '--no-report',
    '--quiet',
  ];
  const result = await execa('node', ['bin/lock-oracles.js', ...args], { reject: false });
  const record = JSON.parse(result.stdout) as { verdict: string; timing: Timing };
  const t = record.timing;
  const cells = [t.wallMs, t.storeStartMs, t.holdersReadyMs, t.scenarioMs, t.scenarioMs - ttl].map((ms) =>
    ms.toFixed(0),
  );
  console.log(`| ${run} | ${record.verdict} | ${load} | ${cells.join(' | ')} |`);
}
