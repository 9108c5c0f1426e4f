/**
 * A scratch redis-server or valkey-server is ready when it prints "Ready to accept connections",
 * with the version it printed as it started (src/families/redis/recipe.ts): no client connects
 * before the run's own. A build that prints neither (another LOCK_ORACLES_REDIS_SERVER) is probed
 * with a client instead. Either way the version is the server's own (`<binary> --version`).
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, expect, test } from 'vitest';
import { runOracle } from '../src/run/run-oracle.ts';
import { taggedCli } from './tagged-cli.ts';

const { cli } = taggedCli();

const versionOf = (binary: string) => /v=(\S+)/.exec(execFileSync(binary, ['--version'], { encoding: 'utf8' }))![1];
const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

test.each(['redis', 'valkey'] as const)('%s: ready by its own log, with the version it printed', async (store) => {
  const record = await runOracle({ oracle: 'V310', target: 'targets/redis/ioredis/lock-correct.ts', store });
  expect(record.verdict).toBe('PASS');
  expect(record.store?.version).toBe(versionOf(`${store}-server`));
});

test('a redis-server that prints nothing is probed instead, and the run goes on', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lock-oracles-test-quiet-redis-'));
  scratch.push(dir);
  const quiet = join(dir, 'quiet-redis-server');
  // Its log to /dev/null (the last --logfile wins): neither line the start waits for is printed.
  writeFileSync(quiet, '#!/bin/sh\nexec redis-server "$@" --logfile /dev/null\n');
  chmodSync(quiet, 0o755);
  const run = await cli(['V310', '--target', 'targets/redis/ioredis/lock-correct.ts', '--json', '--no-report'], {
    LOCK_ORACLES_REDIS_SERVER: quiet,
  });
  expect(run.exitCode, run.stderr).toBe(0);
  const record = JSON.parse(run.stdout) as { verdict: string; store: { version: string; startMs: number } };
  expect(record.verdict).toBe('PASS');
  expect(record.store.version).toBe(versionOf('redis-server'));
  // It waited for the lines the whole READY_LOG_WITHIN_MS before probing.
  expect(record.store.startMs).toBeGreaterThanOrEqual(2000);
});
