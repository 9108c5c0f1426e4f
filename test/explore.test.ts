/**
 * --explore's edges: nothing to explore, the --max-points cap. (Every explorable oracle having its
 * reference tests: test/explore-oracles.test.ts.)
 */
import { expect, test } from 'vitest';
import { explore, WARM_AHEAD_PER, WARM_DURING_TRACE_PER_JOB, warmRunsAhead } from '../src/explore/explore.ts';
import { replaySchedule } from '../src/explore/replay.ts';
import { FAULT_ORDER } from '../src/faults/registry.ts';

test('a release that sends no store command has nothing to explore: INCONCLUSIVE, saying so', async () => {
  const { record } = await explore({ oracle: 'V310', target: 'test/fixtures/targets/release-forgets.ts', jobs: 1 });
  expect(record.verdict).toBe('INCONCLUSIVE');
  expect(record.exploration!.points).toEqual([]);
  expect(record.explanation).toMatch(/Nothing to explore: when A ran alone its release sent no store command/);
});

test('--max-points caps the search and names what it skipped', async () => {
  const { record, schedule } = await explore({
    oracle: 'V311',
    target: 'targets/redis/ioredis/acquire-setnx-then-expire.ts',
    maxPoints: 1,
    jobs: 1,
  });
  const x = record.exploration!;
  expect(x.points.map((p) => p.label)).toEqual(['acquire#1 SETNX, SIGKILL after its reply']);
  expect(x.skipped).toEqual(['acquire#3 PEXPIRE, SIGKILL after its reply']);
  expect(record.verdict).toBe('FAIL');
  expect(schedule).toMatchObject({
    oracle: 'V311',
    fault: 'kill-after-reply',
    boundary: { part: 'acquire', index: 1, name: 'SETNX', nth: 1 },
  });
  expect(record.explanation).toMatch(/beyond --max-points were not run: acquire#3 PEXPIRE, SIGKILL after its reply/);
}, 120_000);

test('a whole exploration shrinks to the earliest failing boundary with the smallest fault and lists the other failing schedules', async () => {
  const { record, schedule } = await explore({
    oracle: 'V310',
    target: 'targets/redis/ioredis/release-get-compare-del.ts',
    params: { ttl: 500 },
  });
  const x = record.exploration!;
  const why = x.points.map((p) => `${p.label}: ${p.verdict} — ${p.reason}`).join('\n');
  const fails = x.points.filter((p) => p.verdict === 'FAIL');
  expect(fails.length, why).toBeGreaterThan(1);
  expect(x.notStarted).toBeUndefined();
  const ordered = [...fails].sort(
    (p, q) => p.boundary.index - q.boundary.index || FAULT_ORDER.indexOf(p.fault) - FAULT_ORDER.indexOf(q.fault),
  );
  expect(x.minimal).toBe(ordered[0]!.label);
  expect(schedule).toMatchObject({ boundary: ordered[0]!.boundary, fault: ordered[0]!.fault, verdict: 'FAIL' });
  expect(record.explanation).toContain(
    `Other failing schedules: ${ordered
      .slice(1)
      .map((p) => p.label)
      .join('; ')}.`,
  );
}, 300_000);

test('--first-fail starts no point after a failing one and lists them', async () => {
  const { record } = await explore({
    oracle: 'V311',
    target: 'targets/redis/ioredis/acquire-setnx-then-expire.ts',
    firstFail: true,
    jobs: 1,
  });
  const x = record.exploration!;
  expect(x.points.map((p) => `${p.label}: ${p.verdict}`)).toEqual(['acquire#1 SETNX, SIGKILL after its reply: FAIL']);
  expect(x.notStarted).toEqual(['acquire#3 PEXPIRE, SIGKILL after its reply']);
  expect(record.explanation).toMatch(
    /1 later point\(s\) were not started once one had failed \(--first-fail\): acquire#3 PEXPIRE, SIGKILL after its reply\./,
  );
}, 120_000);

test('a point A never reaches is INCONCLUSIVE and says why (a schedule replayed on a target that takes another path)', async () => {
  // Found on SETNX then PEXPIRE: the kill after the reply to A's 2nd command on the lock. The fixed
  // acquire (SET NX PX) sends only one, so the fault cannot land there: never a PASS.
  const record = await replaySchedule(
    {
      schemaVersion: 1,
      oracle: 'V311',
      target: 'targets/redis/ioredis/acquire-setnx-then-expire.ts',
      store: 'redis',
      params: { variant: 'between-commands' },
      holder: 'A',
      boundary: {
        part: 'acquire',
        index: 3,
        kind: 'command',
        name: 'PEXPIRE',
        nth: 1,
        text: 'PEXPIRE lock-oracles:V311 300',
        onKey: true,
        keyNth: 2,
      },
      fault: 'kill-after-reply',
      command: 'PEXPIRE lock-oracles:V311 300',
      verdict: 'FAIL',
    },
    { target: 'targets/redis/ioredis/acquire-nx-px.ts' },
  );
  expect(record.verdict).toBe('INCONCLUSIVE');
  expect(record.explanation).toMatch(
    /A's acquire finished without reaching acquire#3 PEXPIRE \(its 2nd command on the lock key, seen there when A ran alone\)/,
  );
}, 120_000);

test("while the trace plays, an exploration on slots of its own keeps its first points' holders started ahead", () => {
  // 2 jobs, 2 points in flight: during the trace 4 runs per job, after it one per 4 points in flight.
  expect(warmRunsAhead({ tracing: true, floor: 2, level: 2 })).toBe(2 * WARM_DURING_TRACE_PER_JOB);
  expect(warmRunsAhead({ tracing: false, floor: 2, level: 2 })).toBe(1);
  expect(warmRunsAhead({ tracing: false, floor: 2, level: 32 })).toBe(32 / WARM_AHEAD_PER);
  // Slots not sized by the CPU (shared by a test file's explorations): one run ahead.
  expect(warmRunsAhead({ tracing: false, floor: 1, level: undefined })).toBe(1);
});
