/**
 * Every run ends: a target that hangs (an import, a write(), a schedule() that never settles, a
 * busy loop) ends at the run's deadline as ERROR naming what was pending, with its processes
 * stopped; evidence appears at its final path complete or not at all; a report dir that cannot
 * take evidence is refused before the run, without spinning.
 */
import { describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { linkSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runOracle } from '../src/run/run-oracle.ts';
import { writeFileAtomic } from '../src/report/safe-write.ts';

const hang = (name: string) => `test/fixtures/targets/hang/${name}.ts`;
// Long enough for three holders to load at a load of 40 on two cores, short enough for the suite.
const DEADLINE_MS = 15_000;

describe('a run that would hang ends at its deadline as ERROR, naming what was pending', () => {
  test.concurrent.each([
    [
      'a target whose import never settles',
      'V310',
      'import-never-settles',
      /holder A: loading the target \(its import has not settled\)/,
    ],
    [
      'a write() that never settles',
      'V318',
      'write-never-settles',
      /holder A: write\(\) has not returned|loading the target/,
    ],
    [
      'a schedule() that never settles',
      'V319',
      'schedule-never-settles',
      /schedule\(\) has not returned|loading the target/,
    ],
    // The spinning holder answers nothing more: whichever request was in flight is named.
    [
      'a scheduler that busy-loops',
      'V319',
      'schedule-busy-loop',
      /(schedule\(\)|clock [\w-]+) has not returned|loading the target/,
    ],
  ])('%s', async (_name, oracle, fixture, pending) => {
    const began = performance.now();
    const record = await runOracle({ oracle, target: hang(fixture), deadlineMs: DEADLINE_MS });
    expect(record.verdict).toBe('ERROR');
    expect(record.error).toMatch(new RegExp(`did not finish within its deadline of ${DEADLINE_MS} ms`));
    expect(record.error).toMatch(pending);
    // Loaded holders that hang in a call are named by the call, not as loading.
    if (record.target.members.length) expect(record.error).not.toMatch(/loading the target/);
    // Teardown is bounded: a hung holder is killed, not waited for.
    expect(performance.now() - began).toBeLessThan(DEADLINE_MS + 10_000);
    const exits = record.history.filter((e) => e.kind === 'holder-exit');
    expect(exits.length).toBeGreaterThan(0);
  });
});

describe('evidence is written atomically', () => {
  test('a file is replaced by rename: a reader of the old file never sees it rewritten in place', () => {
    const dir = mkdtempSync(join(tmpdir(), 'atomic-'));
    const path = join(dir, 'evidence.json');
    writeFileSync(path, '{"old":true}\n');
    linkSync(path, join(dir, 'witness')); // same inode as the old file
    writeFileAtomic(path, '{"new":true}\n');
    expect(readFileSync(path, 'utf8')).toBe('{"new":true}\n');
    expect(readFileSync(join(dir, 'witness'), 'utf8')).toBe('{"old":true}\n');
    expect(readdirSync(dir).sort()).toEqual(['evidence.json', 'witness']);
  });
});

describe('a report dir that cannot take evidence is refused before the run', () => {
  const cli = (args: string[]) => execa('npx', ['tsx', 'src/cli/main.ts', ...args], { reject: false, timeout: 90_000 });
  test.concurrent.each([
    [
      'a file',
      () => {
        const file = join(mkdtempSync(join(tmpdir(), 'report-file-')), 'not-a-dir');
        writeFileSync(file, '');
        return file;
      },
      /--report-dir: cannot write evidence under .*not-a-dir/,
    ],
    [
      'a path under /proc (recursive mkdir would spin there)',
      () => '/proc/lock-oracles-report/x',
      /--report-dir: cannot write evidence under \/proc\/lock-oracles-report\/x/,
    ],
  ])('%s', async (_name, dir, message) => {
    const { exitCode, stderr } = await cli([
      'V310',
      '--target',
      'targets/redis/ioredis/lock-correct.ts',
      '--report-dir',
      dir(),
    ]);
    expect(exitCode).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/starting a scratch/);
  });
});
