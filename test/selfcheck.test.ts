/**
 * `lock-oracles selfcheck`: the harness checking itself. One oracle's whole set (references on
 * every store, its mutation, its hostile fixture) must come out with no wrong verdict and nothing
 * left behind; a deliberately mis-declared expectation must be counted wrong and fail the command.
 * Real stores, real holders, the CLI as a separate process.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { mutantSource } from '../src/selfcheck/mutants.ts';
import { selfcheckCases } from '../src/selfcheck/selfcheck.ts';
import { watchLeftovers } from '../src/selfcheck/leftovers.ts';
import { claimDir } from '../src/process/run-owner.ts';
import { taggedCli } from './tagged-cli.ts';

const { cli, leftovers } = taggedCli({ timeout: 300_000 });

interface Report {
  matrix: Array<{
    oracle: string;
    target: string;
    params: Record<string, unknown>;
    run: number;
    expected: string;
    observed: string;
    kind: string;
    outcome: string;
    problems: string[];
    evidence?: string;
  }>;
  right: number;
  wrong: number;
  inconclusive: number;
  errors: number;
  leftovers: string[];
}

describe('selfcheck', () => {
  test('V316, one run: every reference, the mutation and the hostile fixture; wrong 0, nothing left behind', async () => {
    const cases = await selfcheckCases(['V316']);
    const { stdout, stderr, exitCode } = await cli(['selfcheck', 'V316', '--runs', '1', '--jobs', '2', '--json']);
    expect(exitCode, stderr).toBe(0);
    const report = JSON.parse(stdout) as Report;
    expect(report.matrix).toHaveLength(cases.length);
    for (const row of report.matrix) {
      expect(Object.keys(row)).toEqual(
        expect.arrayContaining(['oracle', 'target', 'params', 'run', 'expected', 'observed']),
      );
      expect(row.oracle).toBe('V316');
      expect(row.run).toBe(1);
    }
    expect(report.wrong, JSON.stringify(report.matrix.filter((r) => r.outcome === 'wrong'))).toBe(0);
    expect(report.leftovers).toEqual([]);
    expect(report.right + report.inconclusive + report.errors).toBe(report.matrix.length);
    // The mutant (timeout-monotonic reading Date.now()) is caught: FAIL, or at worst INCONCLUSIVE under load.
    const mutant = report.matrix.find((r) => r.kind === 'mutation');
    expect(mutant).toMatchObject({ target: 'targets/clock/timeout-monotonic.ts', expected: 'FAIL' });
    expect(['FAIL', 'INCONCLUSIVE']).toContain(mutant!.observed);
    expect(report.matrix.some((r) => r.kind === 'hostile' && r.expected === 'INCONCLUSIVE')).toBe(true);
    expect(
      report.matrix
        .filter((r) => r.kind === 'reference')
        .map((r) => r.expected)
        .sort(),
    ).toEqual(['FAIL', 'FAIL', 'FAIL', 'FAIL', 'PASS', 'PASS', 'PASS', 'PASS']);
    expect(leftovers()).toEqual([]);
  });

  test('a mis-declared expectation is one wrong verdict and a failing exit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'selfcheck-cases-'));
    const file = join(dir, 'cases.json');
    // A correct lock declared as one the oracle must FAIL: the selfcheck must say it is wrong.
    writeFileSync(
      file,
      JSON.stringify([{ oracle: 'V310', target: 'targets/redis/ioredis/lock-correct.ts', expect: 'FAIL' }]),
    );
    const reports = join(dir, 'evidence');
    const { stdout, stderr, exitCode } = await cli([
      'selfcheck',
      '--cases',
      file,
      '--runs',
      '1',
      '--json',
      '--report-dir',
      reports,
    ]);
    expect(exitCode, stderr).toBe(1);
    const report = JSON.parse(stdout) as Report;
    expect(report.wrong).toBe(1);
    expect(report.matrix).toEqual([
      expect.objectContaining({ oracle: 'V310', expected: 'FAIL', observed: 'PASS', outcome: 'wrong' }),
    ]);
    expect(report.matrix[0]!.problems[0]).toMatch(/^PASS, expected FAIL/);
    expect(report.leftovers).toEqual([]);
    // The wrong row keeps its evidence, named in the row and in the progress lines.
    const evidence = report.matrix[0]!.evidence!;
    expect(evidence.startsWith(reports)).toBe(true);
    expect(JSON.parse(readFileSync(join(evidence, 'evidence.json'), 'utf8'))).toMatchObject({
      oracle: { id: 'V310' },
      verdict: 'PASS',
    });
    expect(stderr).toContain(`evidence: ${evidence}`);
    rmSync(dir, { recursive: true, force: true });
  });

  test('the leftover check sees a process the runs started that still runs, and a run dir this process still owns', async () => {
    const watch = watchLeftovers(() => new Set());
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    const dir = mkdtempSync(join(tmpdir(), 'lock-oracles-redis-'));
    claimDir(dir);
    try {
      await new Promise((resolve) => setTimeout(resolve, 600));
      watch.stop();
      const found = await watch.leftovers();
      expect(found).toContain(`process ${child.pid} (sleep) still runs`);
      expect(found).toContain(`dir ${dir}`);
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
    await new Promise((resolve) => child.once('exit', resolve));
    expect((await watch.leftovers()).filter((w) => w.includes(String(child.pid)) || w.includes(dir))).toEqual([]);
  });

  test('a mutation whose text is not in the good target is refused, not run on the unmutated code', () => {
    expect(() => mutantSource('return a === b;', { of: 'x.ts', edits: [['a !== b', 'true']] })).toThrow(
      /"a !== b" occurs 0 times in it, not once/,
    );
    expect(() => mutantSource('f(); f();', { of: 'x.ts', edits: [['f()', 'g()']] })).toThrow(/occurs 2 times/);
    expect(mutantSource('if (ok) write();', { of: 'x.ts', edits: [['if (ok) ', '']] })).toBe('write();');
  });

  test("every declared mutation applies to its good target, which is one of its oracle's PASS references", async () => {
    const cases = await selfcheckCases();
    const mutations = cases.filter((c) => c.kind === 'mutation');
    expect(mutations.length).toBeGreaterThanOrEqual(10);
    for (const m of mutations) {
      expect(
        cases.some(
          (c) => c.kind === 'reference' && c.oracle === m.oracle && c.target === m.target && c.expect === 'PASS',
        ),
        `${m.oracle} ${m.target}`,
      ).toBe(true);
      expect(m.expect).toBe('FAIL');
    }
  });
});
