/**
 * --explore's edges: nothing to explore, the --max-points cap, and every explorable oracle having
 * its reference test (test/explore-V3xx.test.ts, test/explore-references.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { loadAllOracles, REPO_ROOT } from '../src/registry.ts';
import { explore } from '../src/explore/explore.ts';
import { replaySchedule } from '../src/explore/replay.ts';

test('every explorable oracle has its reference test file', async () => {
  const explorable = (await loadAllOracles()).filter((o) => o.explore).map((o) => o.id);
  expect(explorable.filter((id) => !existsSync(join(REPO_ROOT, 'test', `explore-${id}.test.ts`)))).toEqual([]);
});

test('a release that sends no store command has nothing to explore: INCONCLUSIVE, saying so', async () => {
  const { record } = await explore({ oracle: 'V310', target: 'test/fixtures/targets/release-forgets.ts', jobs: 1 });
  expect(record.verdict).toBe('INCONCLUSIVE');
  expect(record.exploration!.points).toEqual([]);
  expect(record.explanation).toMatch(/Nothing to explore: when A ran alone its release sent no store command/);
});

test('--max-points caps the search and names what it skipped', async () => {
  const { record, schedule } = await explore({ oracle: 'V311', target: 'targets/redis/ioredis/acquire-setnx-then-expire.ts', maxPoints: 1, jobs: 1 });
  const x = record.exploration!;
  expect(x.points.map((p) => p.label)).toEqual(['acquire#1 SETNX, SIGKILL after its reply']);
  expect(x.skipped).toEqual(['acquire#3 PEXPIRE, SIGKILL after its reply']);
  expect(record.verdict).toBe('FAIL');
  expect(schedule).toMatchObject({ oracle: 'V311', fault: 'kill-after-reply', boundary: { part: 'acquire', index: 1, name: 'SETNX', nth: 1 } });
  expect(record.explanation).toMatch(/beyond --max-points were not run: acquire#3 PEXPIRE, SIGKILL after its reply/);
}, 120_000);

test('a point A never reaches is INCONCLUSIVE and says why (a schedule replayed on a target that takes another path)', async () => {
  // Found on SETNX then PEXPIRE: the kill after the reply to A's 2nd command on the lock. The fixed
  // acquire (SET NX PX) sends only one, so the fault cannot land there: never a PASS.
  const record = await replaySchedule({
    schemaVersion: 1,
    oracle: 'V311',
    target: 'targets/redis/ioredis/acquire-setnx-then-expire.ts',
    store: 'redis',
    params: { variant: 'between-commands' },
    holder: 'A',
    boundary: { part: 'acquire', index: 3, kind: 'command', name: 'PEXPIRE', nth: 1, text: 'PEXPIRE lock-oracles:V311 300', onKey: true, keyNth: 2 },
    fault: 'kill-after-reply',
    command: 'PEXPIRE lock-oracles:V311 300',
    verdict: 'FAIL',
  }, { target: 'targets/redis/ioredis/acquire-nx-px.ts' });
  expect(record.verdict).toBe('INCONCLUSIVE');
  expect(record.explanation).toMatch(/A's acquire finished without reaching acquire#3 PEXPIRE \(its 2nd command on the lock key, seen there when A ran alone\)/);
}, 120_000);
