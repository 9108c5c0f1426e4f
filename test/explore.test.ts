/**
 * --explore finds the failing schedule with no variant, hold or seam parameter: every bad
 * reference an oracle lists for exploration FAILs (and names its minimal schedule), every good one
 * safe by construction PASSes with 0 failing points, against real stores and real holders. Points
 * run in parallel, each on its own scratch store.
 */
import { describe, expect, test } from 'vitest';
import { loadAllOracles } from '../src/registry.ts';
import { explore } from '../src/explore/explore.ts';

const explorable = (await loadAllOracles()).filter((o) => o.explore);

describe.each(explorable.map((o) => [o.id, o] as const))('%s --explore', (id, oracle) => {
  test.concurrent.each(oracle.explore!.references.map((r) => [`${r.expect === 'FAIL' ? 'bad' : 'good'} ${r.target}${r.store ? ` on ${r.store}` : ''}`, r] as const))(
    '%s',
    async (_name, reference) => {
      const { record, schedule } = await explore({ oracle: id, target: reference.target, ...(reference.store ? { store: reference.store } : {}), ...(reference.params ? { params: reference.params } : {}), jobs: 2 });
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
        expect(x.points.find((p) => p.label === x.minimal)?.verdict).toBe('FAIL');
        // The evidence is the minimal failing point's own run: its timeline shows that run.
        expect(record.property?.held).toBe(false);
        expect(record.faults.some((f) => f.kind === 'wire' || f.kind === 'latch')).toBe(true);
      }
    },
  );
});

test('a release that sends no store command has nothing to explore: INCONCLUSIVE, saying so', async () => {
  const { record } = await explore({ oracle: 'V310', target: 'test/fixtures/targets/release-forgets.ts', jobs: 1 });
  expect(record.verdict).toBe('INCONCLUSIVE');
  expect(record.exploration!.points).toEqual([]);
  expect(record.explanation).toMatch(/Nothing to explore: when A ran alone its release sent no store command/);
});

test('--max-points caps the search and names what it skipped; the minimal schedule is the earliest boundary, smallest fault', async () => {
  const { record, schedule } = await explore({ oracle: 'V310', target: 'targets/redis/ioredis/release-bare-del.ts', maxPoints: 1, jobs: 1 });
  const x = record.exploration!;
  expect(x.points.map((p) => p.label)).toEqual(['release#1 DEL, held before it']);
  expect(x.skipped).toEqual(['release#1 DEL, its reply held']);
  expect(record.verdict).toBe('FAIL');
  expect(schedule).toMatchObject({ oracle: 'V310', fault: 'hold-before', boundary: { part: 'release', index: 1, name: 'DEL', nth: 1 } });
  expect(record.explanation).toMatch(/beyond --max-points were not run: release#1 DEL, its reply held/);
});
