/**
 * --explore finds the failing schedule with no variant, hold or seam parameter: every bad
 * reference an oracle lists for exploration FAILs (and names its minimal schedule), every good one
 * safe by construction PASSes with 0 failing points, against real stores and real holders. Points
 * run in parallel, each on its own scratch store.
 */
import { describe, expect, test } from 'vitest';
import { loadAllOracles } from '../src/registry.ts';
import { explore } from '../src/explore/explore.ts';
import { FAULT_ORDER } from '../src/explore/types.ts';

const explorable = (await loadAllOracles()).filter((o) => o.explore);

describe.each(explorable.map((o) => [o.id, o] as const))('%s --explore', (id, oracle) => {
  test.each(oracle.explore!.references.map((r) => [`${r.expect === 'FAIL' ? 'bad' : 'good'} ${r.target}${r.store ? ` on ${r.store}` : ''}`, r] as const))(
    '%s',
    async (_name, reference) => {
      const { record, schedule } = await explore({ oracle: id, target: reference.target, ...(reference.store ? { store: reference.store } : {}), ...(reference.params ? { params: reference.params } : {}) });
      const x = record.exploration!;
      const why = `${record.explanation}\n${x.points.map((p) => `${p.label}: ${p.verdict} — ${p.reason}`).join('\n')}`;
      expect(record.verdict, why).toBe(reference.expect);
      expect(x.points.length, why).toBeGreaterThan(0);
      expect(x.skipped).toEqual([]);
      if (reference.expect === 'PASS') {
        expect(x.points.filter((p) => p.verdict !== 'PASS'), why).toEqual([]);
        expect(record.explanation).toMatch(/^No violation in \d+ schedules? \(/);
        expect(schedule).toBeUndefined();
      } else {
        expect(schedule?.verdict).toBe('FAIL');
        // Shrinking: the minimal schedule is the earliest failing boundary with the smallest fault.
        const ordered = [...x.points].sort((p, q) => p.boundary.index - q.boundary.index || FAULT_ORDER.indexOf(p.fault) - FAULT_ORDER.indexOf(q.fault));
        expect(x.minimal, why).toBe(ordered.find((p) => p.verdict === 'FAIL')!.label);
        // The evidence is the minimal failing point's own run: its timeline shows that run.
        expect(record.property?.held).toBe(false);
        expect(record.faults.some((f) => f.kind === 'wire' || f.kind === 'latch')).toBe(true);
      }
    },
    300_000,
  );
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
