/**
 * The fs store (src/families/fs/): a scratch directory on this machine's real filesystem, made and
 * removed like every run dir and reaped after a SIGKILLed harness; the harness's own read of a lock
 * path (exists, kind, content, mtime, the lease left by a declared stale rule); no container; the
 * fs reference rows present for each oracle on fs (the matrix runs them); the fs good targets'
 * mutants FAIL, run with real holder processes (no mocks).
 */
import { execa } from 'execa';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { fsFamily } from '../src/families/fs/index.ts';
import { startStore } from '../src/families/start-store.ts';
import { scratchRoot } from '../src/process/run-dir.ts';
import { assertLoopbackUrl } from '../src/stores/loopback.ts';
import { loadAllOracles } from '../src/run/registry.ts';
import { referenceMatrix } from '../src/run/reference-matrix.ts';
import { runOracle } from '../src/run/run-oracle.ts';
import { writeMutant } from '../src/selfcheck/mutants.ts';
import { isValkeyTwin } from './reference-split.ts';

const fsRunDirs = (root: string) => readdirSync(root).filter((name) => name.startsWith('lock-oracles-fs-'));

describe('the fs store', () => {
  test('is a run dir with a locks/ directory, file:// URL, removed by stop', async () => {
    const store = await startStore({ kind: 'fs' });
    const dir = fileURLToPath(store.url);
    expect(store.url).toMatch(/^file:\/\/\//);
    expect(dir.startsWith(join(scratchRoot(), 'lock-oracles-fs-'))).toBe(true);
    expect(existsSync(dir)).toBe(true);
    expect(store.version).toMatch(/, \w+/);
    expect(fsFamily.holderDir!(store)).toBe(dir);
    await store.stop();
    expect(existsSync(join(dir, '..'))).toBe(false);
  });

  test('a file URL is on this machine only when it names no host', () => {
    expect(assertLoopbackUrl('file:///dev/shm/lock-oracles-fs-x/locks').pathname).toBe(
      '/dev/shm/lock-oracles-fs-x/locks',
    );
    expect(() => assertLoopbackUrl('file://nas.example/locks')).toThrow(/only touches stores on loopback/);
  });

  test('has no container, and the error says to run it locally', async () => {
    await expect(startStore({ kind: 'fs' }, 'container')).rejects.toThrow(/has no container, so use --runtime local/);
  });

  test('the view reads a path itself: kind, content, mtime, and the lease left by a declared stale rule', async () => {
    const store = await startStore({ kind: 'fs' });
    const dir = fileURLToPath(store.url);
    const view = fsFamily.view(store);
    try {
      expect(await view.lock('k.lock')).toMatchObject({ exists: false, value: null, pttlMs: -2, kind: 'none' });
      writeFileSync(join(dir, 'lease.json'), '{"ownerId":"A"}');
      expect(await view.lock('lease.json')).toMatchObject({
        exists: true,
        kind: 'file',
        value: '{"ownerId":"A"}',
        pttlMs: -1,
        where: expect.stringContaining('no expiry'),
      });
      mkdirSync(join(dir, 'k.lock'));
      expect(await view.lock('k.lock')).toMatchObject({ exists: true, kind: 'dir', value: null, pttlMs: -1 });
      writeFileSync(join(dir, 'k.lock', 'owner'), 'B-1');
      const fresh = await view.lock({ path: join(dir, 'k.lock'), owner: 'owner', staleMs: 10_000 });
      expect(fresh).toMatchObject({ exists: true, kind: 'dir', value: 'B-1' });
      expect(fresh.pttlMs).toBeGreaterThan(9_000);
      const old = new Date(Date.now() - 60_000);
      utimesSync(join(dir, 'k.lock'), old, old);
      const stale = await view.lock({ path: 'k.lock', owner: 'owner', staleMs: 10_000 });
      expect(stale).toMatchObject({ exists: true, pttlMs: 0 });
      expect((stale as unknown as { ageMs: number }).ageMs).toBeGreaterThanOrEqual(59_000);
      await expect(view.lock('../elsewhere')).rejects.toThrow(/not under the store's directory/);
      expect(fsFamily.unreadable({ key: 'k', field: 'owner' })).toMatch(/return the lock's path/);
    } finally {
      await view.close();
      await store.stop();
    }
  });

  test("a SIGKILLed harness's fs run dir is removed by clean", async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'leftovers-fs-'));
    const cli = (args: string[]) =>
      execa('npx', ['tsx', 'src/cli/main.ts', ...args], { reject: false, env: { TMPDIR: tmp }, timeout: 90_000 });
    const args = ['V311', '--target', 'targets/fs/mkdir-no-stale.ts', '--store', 'fs', '--grace', '30000'];
    const run = cli([...args, '--timeout', '60000', '--no-report', '--report-dir', tmp]);
    let seen = '';
    await new Promise<void>((resolve, reject) => {
      run.stderr!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (/B retries for up to/.test(seen)) resolve();
      });
      void run.then(() => reject(new Error(`the run ended before B retried:\n${seen}`)));
    });
    const { stdout } = await execa('pgrep', ['-f', `loader\\.mjs.*src/cli/main\\.ts V311 .*--report-dir ${tmp}`], {
      reject: false,
    });
    const harness = Number(stdout.trim().split('\n')[0]);
    expect(harness).toBeGreaterThan(0);
    expect(fsRunDirs(tmp)).toHaveLength(1);
    process.kill(harness, 'SIGKILL');
    await run;
    const left = join(tmp, fsRunDirs(tmp)[0]!);
    const clean = await cli(['clean', '--json']);
    expect(clean.exitCode, clean.stderr).toBe(0);
    expect(
      (JSON.parse(clean.stdout) as { removed: string[] }).removed.some((what) => what.startsWith(`dir ${left}`)),
    ).toBe(true);
    expect(fsRunDirs(tmp)).toEqual([]);
  }, 120_000);
});

const oracles = await loadAllOracles();

describe('the fs reference rows (V310, V311, V312, V313, V315, V317)', () => {
  // Each row runs in npm test's reference matrix (test/reference-targets.test.ts), held to the same
  // checks (checkReference): it is not run a second time here.
  const entries = referenceMatrix(oracles).filter((entry) => entry.store === 'fs');
  test("there are bad and good rows for each oracle that runs on fs, every one in npm test's matrix", () => {
    const rows = entries.map((e) => `${e.oracle.id} ${e.reference.expect}`);
    const oracleIds = ['V310', 'V311', 'V312', 'V313', 'V315', 'V317'];
    expect(new Set(rows)).toEqual(new Set(oracleIds.flatMap((id) => [`${id} FAIL`, `${id} PASS`])));
    expect(entries.filter(isValkeyTwin)).toEqual([]);
  });
});

describe("the fs good target's mutants (its guard removed) FAIL", () => {
  const mutations = oracles.flatMap((oracle) =>
    (oracle.mutations ?? []).filter((m) => m.store === 'fs').map((mutation) => [oracle.id, mutation] as const),
  );
  test.each(mutations.map(([id, m]) => [`${id}: ${m.guard}`, id, m] as const))('%s', async (_name, id, mutation) => {
    const record = await runOracle({ oracle: id, target: writeMutant(mutation), store: 'fs' });
    expect(record.verdict, record.explanation).toBe('FAIL');
  });
});
