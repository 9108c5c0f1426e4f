/**
 * Every sub-command answers --help with its usage on stdout and exit 0 (never "unknown option"),
 * and `references` keeps the evidence of a wrong entry (and of an INCONCLUSIVE one under
 * --report-dir) instead of only printing its problems.
 */
import { describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runOracle } from '../src/run/run-oracle.ts';
import { loadOracle } from '../src/run/registry.ts';
import { checkReference, type ReferenceOutcome } from '../src/run/references.ts';
import { keepEvidence } from '../src/cli/commands/references.ts';

const cli = (args: string[]) => execa('node', ['bin/lock-oracles.js', ...args], { reject: false, timeout: 120_000 });

describe('--help on every sub-command', () => {
  test.each([
    ['selfcheck'],
    ['references'],
    ['list'],
    ['clean'],
    ['replay'],
    ['settle'],
    ['init'],
    ['prove'],
    ['V310'],
  ])(
    '%s --help prints its usage on stdout and exits 0',
    async (command) => {
      const result = await cli([command, '--help']);
      expect(result.stderr).not.toMatch(/unknown option/i);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toMatch(command === 'V310' ? /V310/ : /Usage/);
      if (command !== 'V310' && command !== 'prove') expect(result.stdout).toContain(command);
    },
    180_000,
  );
});

describe('references keeps evidence', () => {
  test("a wrong entry's report is written (to a temp dir it names, or --report-dir); INCONCLUSIVE ones only under --report-dir", async () => {
    const oracle = await loadOracle('V318');
    const record = await runOracle({ oracle: 'V318', target: 'targets/clock/lww-wall-clock.ts' });
    expect(record.verdict).toBe('FAIL');
    // The same real record, checked against the opposite expectation, is a wrong entry.
    const reference = { target: 'targets/clock/lww-wall-clock.ts', expect: 'PASS' as const };
    const wrong: ReferenceOutcome = {
      oracle,
      reference,
      store: 'redis',
      name: 'lww-wall-clock (expected PASS)',
      record,
      problems: checkReference(reference, 'redis', record),
    };
    expect(wrong.problems.length).toBeGreaterThan(0);
    const right: ReferenceOutcome = { ...wrong, reference: { ...reference, expect: 'FAIL' }, problems: [] };
    const inconclusive: ReferenceOutcome = {
      ...right,
      record: { ...record, runId: `${record.runId}-i`, verdict: 'INCONCLUSIVE' },
    };

    const byDefault = keepEvidence([wrong, right, inconclusive], undefined);
    expect([...byDefault.keys()]).toEqual([wrong]);
    const dir = byDefault.get(wrong)!;
    expect(dir.startsWith(join(tmpdir(), 'lock-oracles-references-'))).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'evidence.json'), 'utf8')).runId).toBe(record.runId);

    const asked = mkdtempSync(join(tmpdir(), 'references-report-dir-'));
    const kept = keepEvidence([wrong, right, inconclusive], asked);
    expect([...kept.keys()]).toEqual([wrong, inconclusive]);
    for (const path of kept.values()) {
      expect(path.startsWith(asked)).toBe(true);
      expect(existsSync(join(path, 'summary.md'))).toBe(true);
    }
    expect(keepEvidence([right], undefined).size).toBe(0);
    for (const path of [join(dir, '..'), asked]) rmSync(path, { recursive: true, force: true });
  }, 120_000);
});
