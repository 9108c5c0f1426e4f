/**
 * Measures the verdicts of the ready bindings (targets/bindings/) and of the fromWithLock user
 * project (test/fixtures/user-project/) on every oracle that fits, N runs each, and prints one
 * Markdown table per group: the numbers behind the tables in targets/bindings/README.md.
 *
 *   npx tsx scripts/measure-bindings.ts [--runs 3] [--only redlock] > /tmp/bindings.md
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { runOracle } from '../src/run/run-oracle.ts';
import { cleanupAll } from '../src/process/cleanup.ts';
import type { StoreKind } from '../src/stores/types.ts';

interface Cell {
  label: string;
  oracle: string;
  params?: Record<string, string>;
  store?: StoreKind;
}

const REDIS_CELLS: Cell[] = [
  { label: 'V310 pause', oracle: 'V310' },
  { label: 'V310 narrow', oracle: 'V310', params: { variant: 'narrow' } },
  { label: 'V311 after-acquire', oracle: 'V311' },
  { label: 'V311 between-commands', oracle: 'V311', params: { variant: 'between-commands' } },
  { label: 'V312', oracle: 'V312' },
  { label: 'V313 pause', oracle: 'V313' },
  { label: 'V313 renewal-wire', oracle: 'V313', params: { variant: 'renewal-wire' } },
  { label: 'V315 blackhole', oracle: 'V315' },
];
const PG_CELLS: Cell[] = [
  { label: 'V314 pool', oracle: 'V314' },
  { label: 'V314 pooler (transaction)', oracle: 'V314', params: { scenario: 'pooler' } },
  { label: 'V312', oracle: 'V312', store: 'postgres' },
  { label: 'V313 pause', oracle: 'V313', store: 'postgres' },
  { label: 'V315 blackhole', oracle: 'V315', store: 'postgres' },
];

const GROUPS: Array<{ title: string; targets: string[]; cells: Cell[] }> = [
  {
    title: 'Redis bindings',
    targets: [
      'ioredis-set-nx',
      'ioredis-set-nx-fenced',
      'node-redis-set-nx',
      'node-redis-set-nx-fenced',
      'redlock5',
      'redlock5-check-signal',
      'sesame-redlock',
      'sesame-redlock-check-signal',
    ].map((t) => `targets/bindings/${t}.ts`),
    cells: REDIS_CELLS,
  },
  {
    title: 'Postgres advisory-lock bindings',
    targets: ['session-via-pool', 'session', 'transaction'].map((t) => `targets/bindings/pg-advisory-${t}.ts`),
    cells: PG_CELLS,
  },
  {
    title: 'fromWithLock user project (ioredis withLock helper)',
    targets: ['lock', 'lock-fixed'].map((t) => `test/fixtures/user-project/${t}.target.ts`),
    cells: REDIS_CELLS,
  },
];

const { values } = parseArgs({ options: { runs: { type: 'string', default: '1' }, only: { type: 'string' } } });
const runs = Number(values.runs);
const short: Record<string, string> = { PASS: 'PASS', FAIL: 'FAIL', INCONCLUSIVE: 'INC', ERROR: 'ERR' };
const notes: string[] = [];
const started = performance.now();
const loads: number[] = [];

for (const group of GROUPS) {
  const targets = group.targets.filter((t) => !values.only || t.includes(values.only));
  if (!targets.length) continue;
  console.log(
    `\n### ${group.title}\n\n| target | ${group.cells.map((c) => c.label).join(' | ')} |\n|---|${group.cells.map(() => '---').join('|')}|`,
  );
  for (const target of targets) {
    const row: string[] = [];
    for (const cell of group.cells) {
      const verdicts: string[] = [];
      for (let i = 0; i < runs; i++) {
        loads.push(loadavg()[0]!);
        const record = await runOracle({
          oracle: cell.oracle,
          target,
          ...(cell.params ? { params: cell.params } : {}),
          ...(cell.store ? { store: cell.store } : {}),
        });
        verdicts.push(record.verdict);
        if (i === 0 && record.verdict !== 'PASS')
          notes.push(
            `${target} ${cell.label}: ${record.verdict} — ${(record.property?.detail ?? record.explanation).split('\n')[0]}`,
          );
      }
      const counts = [...new Set(verdicts)].map(
        (v) => `${short[v] ?? v}${runs > 1 ? ` ${verdicts.filter((x) => x === v).length}/${runs}` : ''}`,
      );
      row.push(counts.join(', '));
      process.stderr.write(`${target} ${cell.label}: ${row.at(-1)}\n`);
    }
    console.log(`| \`${target.split('/').pop()}\` | ${row.join(' | ')} |`);
  }
}
console.log(
  `\n${runs} run(s) per cell, ${((performance.now() - started) / 1000).toFixed(0)} s, load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}.\n`,
);
console.log('Not PASS, why (first run):\n');
for (const note of notes) console.log(`- ${note}`);
await cleanupAll();
process.exit(0);
