/**
 * A store binary that ran is not spawned again for the same file (path, inode, size, mtime), not even
 * by the next process (src/stores/binary-runs.ts); a changed file or one that failed is asked again.
 * The "binary" here is a shell script that counts its own runs: what is under test is the check.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'lock-oracles-binary-runs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function script(name: string, exitCode: number): { path: string; runs: () => number } {
  const path = join(dir, name);
  const log = `${path}.runs`;
  writeFileSync(log, '');
  writeFileSync(path, `#!/bin/sh\necho run >> '${log}'\nexit ${exitCode}\n`);
  chmodSync(path, 0o755);
  return { path, runs: () => readFileSync(log, 'utf8').split('\n').filter(Boolean).length };
}

/** The module as a fresh process would load it: nothing remembered in memory. */
async function freshBinaryRuns(): Promise<(binary: string) => Promise<boolean>> {
  vi.resetModules();
  return (await import('../src/stores/binary-runs.ts')).binaryRuns;
}

it('runs a binary once, then trusts the same file in this process and the next', async () => {
  const server = script('server-ok', 0);
  expect(await (await freshBinaryRuns())(server.path)).toBe(true);
  expect(server.runs()).toBe(1);
  const same = await freshBinaryRuns();
  expect(await same(server.path)).toBe(true);
  expect(await same(server.path)).toBe(true);
  expect(server.runs()).toBe(1);
});

it('asks again when the file changed', async () => {
  const server = script('server-changed', 0);
  expect(await (await freshBinaryRuns())(server.path)).toBe(true);
  const later = new Date(Date.now() + 5000);
  utimesSync(server.path, later, later);
  expect(await (await freshBinaryRuns())(server.path)).toBe(true);
  expect(server.runs()).toBe(2);
});

it('does not remember a binary that failed, and finds none that is absent', async () => {
  const broken = script('server-broken', 1);
  const binaryRuns = await freshBinaryRuns();
  expect(await binaryRuns(broken.path)).toBe(false);
  expect(await binaryRuns(broken.path)).toBe(false);
  expect(broken.runs()).toBe(2);
  expect(await binaryRuns(join(dir, 'no-such-server'))).toBe(false);
});
