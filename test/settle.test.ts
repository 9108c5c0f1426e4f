/**
 * `settle` as a CI matrix drives it: a bad rows file is refused up front (every bad row named,
 * exit 2, nothing started); two shards settle their rows on real stores and `settle merge` joins
 * them into one file with the right status per row, the unknown fields kept, and JUnit XML that
 * validates against the JUnit schema.
 */
import { describe, expect, test } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { taggedCli } from './tagged-cli.ts';
import { expectValidJunit } from './junit-schema.ts';
import type { RowsFile } from '../src/settle/rows.ts';

const { cli, leftovers } = taggedCli({ timeout: 110_000 });

export { expectValidJunit };

describe('settle', () => {
  test('a bad rows file: every bad row named, exit 2, no store started and no report written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'settle-bad-'));
    const notJson = join(dir, 'broken.json');
    writeFileSync(notJson, '{"rows": [ {"id": "R1", ');
    const broken = await cli(['settle', notJson, '--report-dir', join(dir, 'reports')]);
    expect(broken.exitCode).toBe(2);
    expect(broken.stderr).toMatch(/broken\.json: 1 problem\(s\), nothing was started:\n\s+- not JSON/);

    const bad = await cli([
      'settle',
      'test/fixtures/settle/bad-rows.json',
      '--out',
      join(dir, 'out.json'),
      '--junit',
      join(dir, 'junit.xml'),
      '--report-dir',
      join(dir, 'reports'),
    ]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/5 problem\(s\), nothing was started/);
    expect(bad.stderr).toMatch(/row 2 \(B2\): no "oracle"/);
    expect(bad.stderr).toMatch(/row 3 \(B3\): no "target"/);
    expect(bad.stderr).toMatch(/row B4: unknown oracle "V399"/);
    expect(bad.stderr).toMatch(/row B5: --target: cannot read "no\/such\/helper\.target\.ts"/);
    expect(bad.stderr).toMatch(/row B6: V310: --ttl must be a whole number of milliseconds[^\n]*got "soon"/);
    expect(bad.stderr).not.toMatch(/B1/); // the good row is not blamed
    for (const file of ['out.json', 'junit.xml', 'reports']) expect(existsSync(join(dir, file))).toBe(false);
    expect(leftovers()).toEqual([]);
  });

  test('two shards and settle merge: Confirmed, Refuted, Unconfirmed (INCONCLUSIVE, missing member); unknown fields kept; JUnit valid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'settle-shards-'));
    const shard = (i: number) =>
      cli([
        'settle',
        'test/fixtures/settle/rows.json',
        '--shard',
        `${i}/2`,
        '--jobs',
        '1',
        '--out',
        join(dir, `shard-${i}.json`),
        '--report-dir',
        join(dir, 'reports'),
        '--fail-on',
        'never',
      ]);
    const [one, two] = await Promise.all([shard(1), shard(2)]);
    expect([one.exitCode, two.exitCode]).toEqual([0, 0]);
    expect(one.stderr).toMatch(/settling 2 row\(s\) \(shard 1\/2 of 4\)/);
    expect(one.stderr).toMatch(/\[1\/2\] R1 V310 FAIL in [\d.]+ s · ETA [\d.]+ s/);
    const firstShard = JSON.parse(readFileSync(join(dir, 'shard-1.json'), 'utf8')) as RowsFile;
    expect(firstShard.rows.map((r) => r.status)).toEqual(['Confirmed', undefined, 'Unconfirmed', undefined]);

    const merged = await cli([
      'settle',
      'merge',
      join(dir, 'shard-1.json'),
      join(dir, 'shard-2.json'),
      '--out',
      join(dir, 'merged.json'),
      '--junit',
      join(dir, 'junit.xml'),
    ]);
    expect(merged.exitCode).toBe(1); // --fail-on confirmed (the default): R1 is Confirmed
    const body = JSON.parse(readFileSync(join(dir, 'merged.json'), 'utf8')) as RowsFile;
    expect(body.scanner).toBe('coordination-scan');
    expect(body.rows.map((r) => [r.id, r.status])).toEqual([
      ['R1', 'Confirmed'],
      ['R2', 'Refuted'],
      ['R3', 'Unconfirmed'],
      ['R4', 'Unconfirmed'],
    ]);
    const [r1, r2, r3, r4] = body.rows;
    expect(r1!.severity).toBe('high');
    expect(r1!.summary).toMatch(/^V310: .+ after A's release;.* C was granted the lock \[/);
    expect(existsSync(join(r1!.evidence!, 'summary.md'))).toBe(true);
    expect(r2!.results!.map((r) => [r.oracle, r.verdict, r.runs])).toEqual([['V310', 'PASS', 1]]);
    expect(r3!.reason).toMatch(/^V313 INCONCLUSIVE: Nothing was proven\. the job has writes left after its first/);
    expect(r3!.next).toMatch(/run the row again/);
    expect(r4!.reason).toMatch(/has no job member/);
    expect(r4!.next).toMatch(/^Add the missing member/);
    expect(merged.stdout).toMatch(/^### lock-oracles settle: 1 Confirmed, 1 Refuted, 2 Unconfirmed\n/);
    expect(merged.stdout).toMatch(
      /\| R2 \| src\/locks\/helper\.ts:30 \| V310 \| \*\*Refuted\*\* \(one schedule\) \| V310 PASS, one schedule \(exploring may find more\): /,
    );
    expect(r2!.strength).toBe('one schedule');

    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    await expectValidJunit(junit);
    expect(junit).toMatch(/<testsuites name="lock-oracles settle" tests="4" failures="1" errors="0" skipped="2"/);
    expect(junit).toMatch(
      /<testcase classname="V310" name="R1 src\/locks\/release\.ts:12" time="[\d.]+">\n\s+<failure message="Confirmed: /,
    );
    expect(junit).toMatch(
      /<testcase classname="V313" name="R4 [^"]*" time="[\d.]+">\n\s+<skipped message="Unconfirmed \(ERROR\): /,
    );

    // A shard given twice is refused, not silently merged.
    const twice = await cli(['settle', 'merge', join(dir, 'shard-1.json'), join(dir, 'shard-1.json')]);
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toMatch(/row R1 is settled in .* and .*were two shards given the same --shard\?/);
    expect(leftovers()).toEqual([]);
  });
});
