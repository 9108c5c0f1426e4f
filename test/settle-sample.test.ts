/**
 * The sample rows file users read (docs/examples/rows.json): reference targets bad and good of
 * V310–V313, V315, V318 (one on Postgres, one row naming two oracles, one explored: the same target
 * R14 runs unexplored), one row that
 * cannot be proven and one whose target lacks the member its oracle calls — settled with --jobs 2,
 * every row gets the right status, a Refuted row says how much was tried (an unexplored PASS is
 * weaker than an explored one) in the rows file, the Markdown table and the JUnit XML.
 */
import { expect, test } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { taggedCli } from './tagged-cli.ts';
import { expectValidJunit } from './junit-schema.ts';
import type { RowsFile } from '../src/settle/rows.ts';

const { cli, leftovers } = taggedCli({ timeout: 280_000 });

test('settle docs/examples/rows.json --jobs 2: the right status for every row, and how much each Refuted row tried', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'settle-sample-'));
  const sample = JSON.parse(readFileSync('docs/examples/rows.json', 'utf8')) as RowsFile;
  expect(sample.rows.length).toBeGreaterThanOrEqual(12);
  const run = await cli([
    'settle',
    'docs/examples/rows.json',
    '--jobs',
    '2',
    '--out',
    join(dir, 'settled.json'),
    '--junit',
    join(dir, 'junit.xml'),
    '--report-dir',
    join(dir, 'reports'),
    '--fail-on',
    'never',
  ]);
  expect(run.exitCode, run.stderr).toBe(0);
  const settled = JSON.parse(readFileSync(join(dir, 'settled.json'), 'utf8')) as RowsFile;
  const why = settled.rows.map((r) => `${r.id} ${r.status}: ${r.summary ?? r.reason ?? ''}`).join('\n');
  expect(
    settled.rows.map((r) => [r.id, r.status]),
    why,
  ).toEqual([
    ['R01', 'Confirmed'],
    ['R02', 'Refuted'],
    ['R03', 'Confirmed'],
    ['R04', 'Refuted'],
    ['R05', 'Confirmed'],
    ['R06', 'Refuted'],
    ['R07', 'Confirmed'],
    ['R08', 'Refuted'],
    ['R09', 'Confirmed'],
    ['R10', 'Refuted'],
    ['R11', 'Confirmed'],
    ['R12', 'Refuted'],
    ['R13', 'Confirmed'],
    ['R14', 'Refuted'],
    ['R15', 'Unconfirmed'],
    ['R16', 'Unconfirmed'],
  ]);
  const row = (id: string) => settled.rows.find((r) => r.id === id)!;
  expect(settled.note).toBe(sample.note); // unknown fields kept
  expect(row('R14').results!.map((r) => [r.oracle, r.verdict])).toEqual([
    ['V310', 'PASS'],
    ['V311', 'PASS'],
  ]);
  expect(row('R15').reason).toMatch(/^V313 INCONCLUSIVE: /);
  expect(row('R16').reason).toMatch(/has no job member/);

  // How much a Refuted row tried: the explored one counts its points, the others tried one schedule.
  const explored = row('R04');
  const points = Number(/^explored (\d+) points?$/.exec(explored.strength ?? '')?.[1]);
  expect(points, explored.strength).toBeGreaterThan(1);
  expect(explored.results![0]!.explanation).toMatch(new RegExp(`^No violation in ${points} schedules `));
  for (const id of ['R02', 'R06', 'R08', 'R10', 'R12', 'R14']) expect(row(id).strength).toBe('one schedule');
  for (const result of row('R02').results!)
    expect(result.explanation).toMatch(/No violation in 1 schedule \(the oracle's first\); exploring may find more/);
  expect(run.stdout).toMatch(
    new RegExp(
      `\\| R04 \\| [^|]+ \\| V310 \\| \\*\\*Refuted\\*\\* \\(explored ${points} points\\) \\| V310 PASS, explored ${points} points: `,
    ),
  );
  expect(run.stdout).toMatch(
    /\| R06 \| [^|]+ \| V312 \| \*\*Refuted\*\* \(one schedule\) \| V312 PASS, one schedule \(exploring may find more\): /,
  );
  expect(run.stdout).toMatch(/^### lock-oracles settle: 7 Confirmed, 7 Refuted, 2 Unconfirmed\n/);

  const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
  await expectValidJunit(junit);
  expect(junit).toMatch(/<testsuites name="lock-oracles settle" tests="17" failures="7" errors="0" skipped="2"/);
  expect(junit).toMatch(
    new RegExp(
      `<testcase classname="V310" name="R04 [^"]+" time="[\\d.]+">\\n\\s+<system-out>Refuted, explored ${points} points\\. `,
    ),
  );
  expect(junit).toMatch(
    /<testcase classname="V312" name="R06 [^"]+" time="[\d.]+">\n\s+<system-out>Refuted, one schedule \(exploring may find more\)\. /,
  );
  expect(leftovers()).toEqual([]);
}, 300_000);
