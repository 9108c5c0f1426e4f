/**
 * V315's judge on recorded cluster runs (--store cluster: A's node partitioned from the others),
 * with no node and no process: one fact changed at a time moves the verdict the way the property
 * and the preconditions say, B's lease read through the home's inspect report.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURES, load, rejudge } from './recorded.ts';
import { B_LEASE_LIVE, RENEWALS_STOPPED } from '../../oracles/V315/judge.ts';
import type { V315Observations } from '../../oracles/V315/observations.ts';

const bad = load(`${FIXTURES}/V315/cluster-bad-cached-flag.json`);
const good = load(`${FIXTURES}/V315/cluster-good-recheck-each-write.json`);
const observed = (f: { observations: unknown }) => f.observations as V315Observations;
const held = (judgement: { preconditions: Array<{ name: string; held: boolean }> }, name: string) =>
  judgement.preconditions.find((c) => c.name === name)?.held;

describe('V315 judge on a cluster', () => {
  it("FAILs the recorded cached-flag run: A wrote after B's first while the home's grant was B's", async () => {
    const { verdict, judgement } = await rejudge(bad);
    expect(verdict).toBe('FAIL');
    expect(held(judgement, B_LEASE_LIVE)).toBe(true);
    expect(held(judgement, RENEWALS_STOPPED)).toBe(true);
    expect(judgement.property.offending.length).toBeGreaterThan(0);
  });

  it('PASSes the recorded recheck run; INCONCLUSIVE had no message crossed the partition (A never renewed)', async () => {
    expect((await rejudge(good)).verdict).toBe('PASS');
    const { verdict, judgement } = await rejudge(good, (f) => {
      observed(f).cut!.partitioned!.dropped = 0;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(judgement.preconditions.find((c) => c.name === RENEWALS_STOPPED)?.detail).toMatch(/never tried to renew/);
  });

  it("is INCONCLUSIVE, not FAIL, when the home reported no live grant of B's at A's writes", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      for (const r of observed(f).bLease!.atAWrites)
        if (r.reading.kind === 'store') Object.assign(r.reading, { exists: false, value: null, pttlMs: -2 });
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(held(judgement, B_LEASE_LIVE)).toBe(false);
  });

  it('is INCONCLUSIVE, saying why, when the nodes cannot be read (no inspect member)', async () => {
    const why = 'the target has no inspect member, so the harness cannot ask the nodes who holds the lock';
    const { verdict, judgement } = await rejudge(bad, (f) => {
      const lease = observed(f).bLease!;
      lease.atFirstWrite = { kind: 'unreadable', why };
      for (const r of lease.atAWrites) r.reading = { kind: 'unreadable', why };
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(judgement.preconditions.find((c) => c.name === B_LEASE_LIVE)?.detail).toMatch(/no inspect member/);
  });
});
