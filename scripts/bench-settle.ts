/**
 * What `settle --jobs 2` buys over `--jobs 1` on the sample rows file: the wall time of the whole
 * settle, the two alternating (1, 2, 1, 2, …) so load from other processes hits both alike, with
 * the 1-minute load average before and after each, and whether every row got the same status.
 * Prints a Markdown table for docs/benchmarks.md.
 *
 *   npx tsx scripts/bench-settle.ts [pairs, default 2] [rows file, default docs/examples/rows.json]
 */
import { execa } from 'execa';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RowsFile } from '../src/settle/rows.ts';

const PAIRS = Number(process.argv[2] ?? 2);
const ROWS = process.argv[3] ?? 'docs/examples/rows.json';

interface Sample {
  jobs: number;
  wallS: number;
  loadBefore: number;
  loadAfter: number;
  statuses: string;
}

async function settleOnce(jobs: number): Promise<Sample> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-settle-'));
  const loadBefore = loadavg()[0]!;
  const began = performance.now();
  const run = await execa(
    'node',
    [
      'bin/lock-oracles.js',
      'settle',
      ROWS,
      '--jobs',
      String(jobs),
      '--out',
      join(dir, 'out.json'),
      '--no-report',
      '--quiet',
      '--fail-on',
      'never',
    ],
    { reject: false },
  );
  const wallS = (performance.now() - began) / 1000;
  if (run.exitCode !== 0) throw new Error(`settle --jobs ${jobs} exited ${run.exitCode}: ${run.stderr}`);
  const settled = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as RowsFile;
  rmSync(dir, { recursive: true, force: true });
  return {
    jobs,
    wallS,
    loadBefore,
    loadAfter: loadavg()[0]!,
    statuses: settled.rows.map((r) => `${r.id}:${r.status}`).join(' '),
  };
}

const samples: Sample[] = [];
// One unmeasured settle first: builds dist/ and the compiled-holder cache, as any second run finds them.
await settleOnce(2);
for (let pair = 0; pair < PAIRS; pair++) {
  for (const jobs of [1, 2]) {
    const sample = await settleOnce(jobs);
    samples.push(sample);
    process.stderr.write(
      `--jobs ${jobs}: ${sample.wallS.toFixed(1)} s (load ${sample.loadBefore.toFixed(1)} → ${sample.loadAfter.toFixed(1)})\n`,
    );
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const wall = (jobs: number) => median(samples.filter((s) => s.jobs === jobs).map((s) => s.wallS));
const rows = (JSON.parse(readFileSync(ROWS, 'utf8')) as RowsFile).rows.length;
console.log(
  `${rows} rows (${ROWS}), ${PAIRS} pair(s), measured ${new Date().toISOString().slice(0, 16)}Z on ${process.env.HOSTNAME ?? 'this machine'}\n`,
);
console.log('| run | --jobs | wall (s) | load 1-min before → after |');
console.log('|---|---|---|---|');
samples.forEach((s, i) =>
  console.log(
    `| ${i + 1} | ${s.jobs} | ${s.wallS.toFixed(1)} | ${s.loadBefore.toFixed(1)} → ${s.loadAfter.toFixed(1)} |`,
  ),
);
console.log(
  `\nmedian --jobs 1: ${wall(1).toFixed(1)} s; median --jobs 2: ${wall(2).toFixed(1)} s; ratio ${(wall(2) / wall(1)).toFixed(2)}`,
);
const distinct = new Set(samples.map((s) => s.statuses));
console.log(
  distinct.size === 1
    ? 'every run gave every row the same status'
    : `statuses differed between runs:\n${[...distinct].join('\n')}`,
);
