/**
 * The CLI as a user and a CI job drive it: real processes, real stores. Exit codes, the
 * machine-readable shapes, usage errors that say what to do, and nothing left running.
 */
import { describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { closeSync, constants, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { taggedCli } from './tagged-cli.ts';

// Every process a CLI run starts (holders, store servers) inherits a tag, so leftovers() finds them.
const { cli, leftovers } = taggedCli();
const LAUNCHER = fileURLToPath(new URL('../bin/lock-oracles.js', import.meta.url));

describe('help and list', () => {
  test('--help and list both answer on stdout; list shows parameters, members needed and references per oracle', async () => {
    const help = await cli(['--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/^lock-oracles:[\s\S]*Usage:/);
    const list = await cli(['list']);
    expect(list.exitCode).toBe(0);
    const sections = list.stdout.split(/\n(?=V\d+ — )/);
    expect(sections.length).toBeGreaterThanOrEqual(10);
    for (const section of sections) {
      expect(section).toMatch(/^Needs: {5}target members \w+/m);
      expect(section).toMatch(/^Parameters:\n {2}--\w+/m);
      expect(section).toMatch(/^Reference targets \(expected verdict\):\n {2}(PASS|FAIL) +targets\//m);
    }
  });
});

describe('machine-readable shapes', () => {
  test('list --json lists every oracle with params, the members it needs and bad/good reference paths', async () => {
    const { stdout, exitCode } = await cli(['list', '--json']);
    expect(exitCode).toBe(0);
    const body = JSON.parse(stdout) as {
      oracles: Array<{
        id: string;
        stores: string[];
        params: object;
        needs: string[];
        targets: { bad: string[]; good: string[] };
      }>;
    };
    const ids = body.oracles.map((o) => o.id);
    expect(ids).toEqual(expect.arrayContaining(['V310', 'V311', 'V312', 'V313']));
    const needs = Object.fromEntries(body.oracles.map((o) => [o.id, o.needs]));
    expect(needs).toMatchObject({
      V310: ['acquire', 'release'],
      V313: ['job'],
      V314: ['acquire', 'release', 'query'],
      V315: ['leader'],
    });
    for (const oracle of body.oracles) {
      expect(oracle.targets.bad.length).toBeGreaterThan(0);
      expect(oracle.targets.good.length).toBeGreaterThan(0);
      // Shipped targets, or a test fixture a reference names (a target that declares no storeKey).
      for (const path of [...oracle.targets.bad, ...oracle.targets.good])
        expect(path).toMatch(/^(targets|test\/fixtures\/targets)\//);
    }
  });

  test('--json prints one evidence record and nothing else on stdout; FAIL exits 1, --expect fail exits 0', async () => {
    const reportDir = mkdtempSync(join(tmpdir(), 'cli-report-'));
    const failed = await cli([
      'V313',
      '--target',
      'targets/redis/ioredis/lease-no-renewal.ts',
      '--json',
      '--report-dir',
      reportDir,
    ]);
    expect(failed.exitCode).toBe(1);
    const record = JSON.parse(failed.stdout) as Record<string, unknown>;
    for (const field of [
      'schemaVersion',
      'oracle',
      'target',
      'verdict',
      'explanation',
      'preconditions',
      'counts',
      'store',
      'history',
    ]) {
      expect(record).toHaveProperty(field);
    }
    expect(record.verdict).toBe('FAIL');
    expect(failed.stderr).toMatch(/A stopped \(SIGSTOP\)/);
    // The run's first holder (V313's B) booted while the CLI loaded (bin/holder-shell.js); A was spawned by the run.
    const ready = (
      record.history as Array<{ kind: string; holder?: string; detail?: { bootedWithTheCli?: boolean } }>
    ).filter((e) => e.kind === 'holder-ready');
    expect(ready.map((e) => [e.holder, e.detail?.bootedWithTheCli === true]).sort()).toEqual([
      ['A', false],
      ['B', true],
    ]);
    const [runDir] = readdirSync(reportDir);
    expect(readdirSync(join(reportDir, runDir!)).sort()).toEqual([
      'evidence.json',
      'summary.md',
      'timeline.html',
      'timeline.svg',
    ]);
    expect(readFileSync(join(reportDir, runDir!, 'summary.md'), 'utf8')).toMatch(/^# V313 FAIL/);

    const expected = await cli([
      'V313',
      '--target',
      'targets/redis/ioredis/lease-no-renewal.ts',
      '--expect',
      'fail',
      '--no-report',
      '--quiet',
    ]);
    expect(expected.exitCode).toBe(0);
    // --quiet drops the progress lines, never the verdict line nor what --expect made of it.
    expect(stripVTControlCharacters(expected.stderr).trim().split('\n')).toEqual([
      expect.stringMatching(/^FAIL\s+\S/),
      'FAIL, as expected',
    ]);
    expect(leftovers()).toEqual([]);
  });

  test("--json parses when the target prints on stdout: holders never write to the harness's stdout", async () => {
    const { stdout, stderr, exitCode } = await cli([
      'V310',
      '--target',
      'test/fixtures/targets/chatty-lock.ts',
      '--json',
      '--no-report',
    ]);
    expect(exitCode).toBe(0);
    expect((JSON.parse(stdout) as { verdict: string }).verdict).toBe('PASS');
    expect(stderr).toMatch(/chatty: A acquires/);
    expect(stderr).toMatch(/\}\}\} raw bytes on fd 1/);
  });

  test('--runs 2 --json reports a verdict over runs and violations per run; PASS exits 0', async () => {
    const { stdout, exitCode } = await cli([
      'V310',
      '--target',
      'targets/redis/ioredis/lock-correct.ts',
      '--runs',
      '2',
      '--json',
      '--no-report',
      '--ttl',
      '100',
    ]);
    expect(exitCode).toBe(0);
    const body = JSON.parse(stdout) as {
      verdict: string;
      runs: Array<{ params: { ttl: number } }>;
      violations: Array<{ run: number; verdict: string }>;
    };
    expect(body.verdict).toBe('PASS');
    expect(body.runs).toHaveLength(2);
    expect(body.runs[0]!.params.ttl).toBe(100);
    expect(body.violations.map((v) => v.verdict)).toEqual(['PASS', 'PASS']);
  });
});

test("--json reaches a reader that is slow to take it, whole, past a pipe's 64 KiB: the CLI exits once the reader has it all", async () => {
  // A real pipe (a FIFO; node's own 'pipe' stdio is a socket pair, which holds far more). Eight runs
  // make a record of ~80 KB. Nothing is read until a second after the verdict line is on stderr
  // (written after the record: by then the pipe is full and the rest is still in the CLI), or
  // until the CLI exited: one that exits without waiting for its reader loses the rest.
  const fifoDir = mkdtempSync(join(tmpdir(), 'cli-fifo-'));
  const fifo = join(fifoDir, 'stdout');
  await execa('mkfifo', [fifo]);
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(fifo, 'w');
  const child = spawn(
    process.execPath,
    [
      LAUNCHER,
      'V310',
      '--target',
      'targets/redis/ioredis/release-bare-del.ts',
      '--runs',
      '8',
      '--json',
      '--no-report',
      '--quiet',
    ],
    { stdio: ['ignore', writer, 'pipe'] },
  );
  closeSync(writer);
  const chunks: Buffer[] = [];
  let read: Promise<unknown> | undefined;
  const readAll = () =>
    (read ??= once(
      new Socket({ fd: reader, readable: true, writable: false }).on('data', (chunk: Buffer) => chunks.push(chunk)),
      'end',
    ));
  child.stderr!.on('data', (chunk: Buffer) => {
    if (/^(FAIL|PASS|INCONCLUSIVE|ERROR) /m.test(stripVTControlCharacters(chunk.toString()))) setTimeout(readAll, 1000);
  });
  const [exitCode] = (await once(child, 'exit')) as [number | null];
  await readAll();
  rmSync(fifoDir, { recursive: true, force: true });
  const stdout = Buffer.concat(chunks).toString();
  expect(exitCode).not.toBe(2);
  expect(stdout.length).toBeGreaterThan(64 * 1024);
  expect((JSON.parse(stdout) as { runs: unknown[] }).runs).toHaveLength(8);
});

describe('bad input: a clear message, exit 2, nothing left running', () => {
  const cases: Array<[string, string[], RegExp, Record<string, string>?]> = [
    [
      'unknown oracle',
      ['V399', '--target', 'targets/redis/ioredis/lock-correct.ts'],
      /unknown oracle "V399".*known: V310/,
    ],
    ['missing --target', ['V310'], /--target <path> is required/],
    ['unreadable target', ['V310', '--target', 'no/such/file.ts'], /cannot read "no\/such\/file.ts"/],
    [
      'a target that throws on load',
      ['V310', '--target', 'test/fixtures/targets/throws-on-load.ts'],
      /failed to load[\s\S]*boom: this target cannot load/,
    ],
    [
      'a target missing the needed shape',
      ['V313', '--target', 'targets/redis/ioredis/lock-correct.ts'],
      /has no job member/,
    ],
    [
      'a negative TTL',
      ['V310', '--target', 'targets/redis/ioredis/lock-correct.ts', '--ttl', '-5'],
      /--ttl must be at least 20, got -5/,
    ],
    [
      'a timeout shorter than the TTL',
      ['V313', '--target', 'targets/redis/ioredis/lease-no-renewal.ts', '--ttl', '500', '--timeout', '400'],
      /--timeout \(400\) must be longer than --ttl \(500\)/,
    ],
    [
      'a clock skew too small to be seen',
      ['V317', '--target', 'targets/clock/lease-app-clock-expiry.ts', '--skew', '250'],
      /--skew \(250\) must exceed half of --ttl/,
    ],
    [
      'an unknown parameter',
      ['V310', '--target', 'targets/redis/ioredis/lock-correct.ts', '--pauze', '3'],
      /unknown option --pauze/,
    ],
    [
      'a misspelt --target is named, not reported as missing',
      ['V310', '--taget', 'targets/redis/ioredis/lock-correct.ts'],
      /unknown option --taget \(did you mean --target\?\)/,
    ],
    [
      'an extra positional argument',
      ['V310', 'V311', '--target', 'targets/redis/ioredis/lock-correct.ts'],
      /unexpected argument\(s\) "V311"/,
    ],
    [
      'a hexadecimal TTL',
      ['V310', '--target', 'targets/redis/ioredis/lock-correct.ts', '--ttl', '0x40'],
      /--ttl must be a whole number of milliseconds in decimal digits, got "0x40"/,
    ],
    [
      'a TTL of days',
      ['V310', '--target', 'targets/redis/ioredis/lock-correct.ts', '--ttl', '1000000000'],
      /--ttl must be at most 120000/,
    ],
    [
      'an option given twice',
      ['V310', '--target', 'targets/redis/ioredis/lock-correct.ts', '--ttl', '100', '--ttl', '200'],
      /--ttl is given more than once: give each option once/,
    ],
    [
      'a store the oracle does not run on',
      ['V310', '--target', 'targets/redis/ioredis/lock-correct.ts', '--store', 'mysql'],
      /runs on redis.*not on --store mysql/,
    ],
    [
      'redis-server not installed',
      ['V310', '--target', 'targets/redis/ioredis/lock-correct.ts'],
      /redis-server-missing is not installed[\s\S]*To fix: npm run setup/,
      { LOCK_ORACLES_REDIS_SERVER: 'redis-server-missing' },
    ],
  ];
  test.each(cases)('%s', async (_name, args, message, env) => {
    const { exitCode, stderr, stdout } = await cli(args, env);
    expect(exitCode).toBe(2);
    expect(stderr).toMatch(message);
    expect(stdout).toBe('');
    expect(leftovers()).toEqual([]);
  });
});

describe('the harness stops everything it started when interrupted', () => {
  test('SIGINT, and a second one during cleanup: exit 130, an INTERRUPTED record, no store or holder process left, temp dirs removed', async () => {
    // B waits up to a minute for a lease that never lapses: the run is mid-scenario when interrupted.
    const tmp = mkdtempSync(join(tmpdir(), 'cli-sigint-'));
    const reportDir = mkdtempSync(join(tmpdir(), 'cli-sigint-report-'));
    const run = cli(
      ['V313', '--target', 'test/fixtures/targets/job-long-lease.ts', '--timeout', '60000', '--report-dir', reportDir],
      { TMPDIR: tmp },
    );
    let seen = '';
    await new Promise<void>((resolve) => {
      run.stderr!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (/waiting for its 300 ms lease/.test(seen)) resolve();
      });
    });
    const port = /127\.0\.0\.1:(\d+)/.exec(seen)![1]!;
    expect(readdirSync(tmp).filter((f) => f.startsWith('lock-oracles-redis-'))).toHaveLength(1);
    expect(leftovers().length).toBeGreaterThanOrEqual(3); // redis-server and the holders A and B
    // The harness itself: the node process running the launcher (bin/lock-oracles.js).
    const harness = leftovers().find((line) => line.includes('bin/lock-oracles.js'));
    process.kill(Number(harness!.split(' ')[0]), 'SIGINT');
    await new Promise((r) => setTimeout(r, 20));
    process.kill(Number(harness!.split(' ')[0]), 'SIGINT'); // a second Ctrl-C must not abort the cleanup
    const result = await run;
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toMatch(/SIGINT: stopping every store and holder/);
    const [runDir] = readdirSync(reportDir);
    const record = JSON.parse(readFileSync(join(reportDir, runDir!, 'evidence.json'), 'utf8')) as {
      verdict: string;
      explanation: string;
    };
    expect(record.verdict).toBe('INTERRUPTED');
    expect(record.explanation).toMatch(/interrupted by SIGINT while playing the V313 scenario/);
    expect(readdirSync(tmp).filter((f) => f.startsWith('lock-oracles-redis-'))).toEqual([]);
    const { stdout: servers } = await execa('pgrep', ['-af', `redis-server.*:${port}`], { reject: false });
    expect(servers.trim()).toBe('');
    expect(leftovers()).toEqual([]);
  });
});

describe('a harness killed outright (SIGKILL) leaves no process behind', () => {
  test('the store server and the holders, even a stopped one, die with it (parent-death signal)', async () => {
    const run = cli([
      'V313',
      '--target',
      'test/fixtures/targets/job-long-lease.ts',
      '--timeout',
      '60000',
      '--no-report',
    ]);
    let seen = '';
    await new Promise<void>((resolve) => {
      run.stderr!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (/waiting for its 300 ms lease/.test(seen)) resolve();
      });
    });
    const port = /127\.0\.0\.1:(\d+)/.exec(seen)![1]!;
    const server = async () =>
      (await execa('pgrep', ['-af', `redis-server.*:${port}`], { reject: false })).stdout.trim();
    expect(await server()).not.toBe('');
    const harness = leftovers().find((line) => line.includes('bin/lock-oracles.js'));
    expect(leftovers().length).toBeGreaterThanOrEqual(3); // the harness and holders A (stopped) and B
    process.kill(Number(harness!.split(' ')[0]), 'SIGKILL');
    await run;
    const deadline = Date.now() + 5000;
    while ((leftovers().length || (await server())) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(leftovers()).toEqual([]);
    expect(await server()).toBe('');
  });
});
