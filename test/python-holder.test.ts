/**
 * Holders in Python (sdk/python/lock_oracles.py) through the CLI, with real python processes and a
 * real redis-server: a harness killed outright leaves none behind (even a stopped one), and bad input
 * exits 2 naming the fix (no interpreter, a syntax error with its file and line, a missing member in
 * Python's spelling, a Node-only fault).
 */
import { afterAll, describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { taggedCli } from './tagged-cli.ts';

const { cli, leftovers } = taggedCli();

describe('a harness killed outright (SIGKILL) with Python holders', () => {
  test('the python holders, even the stopped one, and the store die with it', async () => {
    const run = cli([
      'V313',
      '--target',
      'targets/python/redis_py_job_no_renewal.py',
      '--ttl',
      '8000',
      '--timeout',
      '60000',
      '--no-report',
    ]);
    let seen = '';
    await new Promise<void>((resolve) => {
      run.stderr!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (/waiting for its 8000 ms lease/.test(seen)) resolve();
      });
    });
    const port = /127\.0\.0\.1:(\d+)/.exec(seen)![1]!;
    const server = async () =>
      (await execa('pgrep', ['-af', `redis-server.*:${port}`], { reject: false })).stdout.trim();
    expect(await server()).not.toBe('');
    expect(leftovers().filter((line) => line.includes('lock_oracles.py'))).toHaveLength(2);
    const harness = leftovers().find((line) => line.includes('bin/lock-oracles.js'));
    process.kill(Number(harness!.split(' ')[0]), 'SIGKILL');
    await run;
    const deadline = Date.now() + 5000;
    while ((leftovers().length || (await server())) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(leftovers()).toEqual([]);
    expect(await server()).toBe('');
  });
});

describe('bad input for a Python target: exit 2, the fix named', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lock-oracles-python-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  test('no interpreter at --python', async () => {
    const run = await cli([
      'V311',
      '--target',
      'targets/python/redis_py_lock_timeout.py',
      '--python',
      join(dir, 'no-python'),
      '--no-report',
    ]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/no Python interpreter at .*apt-get install python3.*--python/s);
  });

  test('a syntax error: the file and the line', async () => {
    const target = file('syntax_error.py', 'def acquire(env):\n    return None +\n');
    const run = await cli(['V311', '--target', target, '--no-report']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(`File "${target}", line 2`);
    expect(run.stderr).toContain('SyntaxError');
  });

  test("a member the oracle needs is missing: named in Python's spelling", async () => {
    const target = file(
      'release_only.py',
      'def store_key(env):\n    return env.key + ".lock"\n\ndef release(env, lease):\n    pass\n',
    );
    const run = await cli(['V311', '--store', 'fs', '--target', target, '--no-report']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/it has no acquire member\(s\) \(it has: store_key, release\)/);
  });

  test("V316's Date-only step is refused for a Python holder, naming why", async () => {
    const target = file('timeout_target.py', 'def timeout(env):\n    env.effect("timeout")\n');
    const run = await cli(['V316', '--target', target, '--no-report']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/in python: this run needs its own clock .*only a Node holder has/);
  });
});
