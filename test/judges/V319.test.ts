/**
 * V319's judge on recorded runs, with no store and no process: the same recorded days with one fact
 * changed move the verdict the way the property and the preconditions say they must.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURES, load, rejudge, type JudgeFixture } from './recorded.ts';
import { ARMED, IN_STEP, SETTLED, WITHIN_BUDGET } from '../../oracles/V319/judge.ts';
import type { DayObservation, V319Observations } from '../../oracles/V319/observations.ts';

// New York's autumn day fires twice: a 10-minute lock on a fixed key does not stop the second run.
const repeated = load(`${FIXTURES}/V319/bad-cron-0230-ten-minute-lock.json`);
// Berlin's spring day has no 02:30: croner in the job's zone skips it.
const skipped = load(`${FIXTURES}/V319/bad-croner-0230-tz.json`);
const good = load(`${FIXTURES}/V319/good-cron-0230-date-key-lock.json`);
// node-cron 4.6.0 on a Berlin host storms through the fall-back day (1.8 million timers a replica) and never fires.
const storming = load(`${FIXTURES}/V319/bad-node-cron-0230-berlin.json`);
const observed = (f: JudgeFixture) => f.observations as V319Observations;
const day = (f: JudgeFixture, zone: string, date: string): DayObservation =>
  observed(f).days.find((d) => d.zone === zone && d.date === date)!;
const check = (judgement: { preconditions: Array<{ name: string; held: boolean }> }, name: string) =>
  judgement.preconditions.find((c) => c.name === name)?.held;
const stopped = {
  spent: 'cpu',
  replica: 'R2',
  cpuMs: 60_012,
  timers: 1_600_000,
  simulatedMs: 3_600_000,
  perSimulatedSecond: 1000,
} as const;

describe('V319 judge', () => {
  it("FAILs the recorded ten-minute-lock run on New York's autumn day, naming its summary and both fires", async () => {
    const { verdict, judgement } = await rejudge(repeated);
    expect(verdict).toBe('FAIL');
    expect(judgement.counts['America/New_York 2025-11-02 fires']).toBe(2);
    const nov = day(repeated, 'America/New_York', '2025-11-02');
    const offending = judgement.property.offending;
    expect(offending.filter((e) => 'kind' in e).map((e) => 'i' in e && e.i)).toEqual([nov.summaryEvent]);
    expect(offending.filter((e) => 'seq' in e).map((e) => 'seq' in e && e.seq)).toEqual(nov.fires.map((f) => f.seq));
  });

  it('PASSes the same run had the repeated hour not fired again', async () => {
    const { verdict } = await rejudge(repeated, (f) => {
      day(f, 'America/New_York', '2025-11-02').fires.pop();
    });
    expect(verdict).toBe('PASS');
  });

  it('FAILs the recorded croner run, whose spring day never fired, and PASSes it had the day fired once', async () => {
    expect((await rejudge(skipped)).verdict).toBe('FAIL');
    const { verdict } = await rejudge(skipped, (f) => {
      const spring = day(f, 'Europe/Berlin', '2025-03-30');
      spring.fires.push({ replica: 'R1', simMs: spring.startMs + 3 * 3_600_000, seq: 1 });
    });
    expect(verdict).toBe('PASS');
  });

  it('FAILs the recorded date-key run had a day fired twice', async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      const d = day(f, 'Europe/Berlin', '2025-10-26');
      d.fires.push({ ...d.fires[0]!, replica: 'R2' });
    });
    expect(verdict).toBe('FAIL');
    expect(judgement.counts['Europe/Berlin 2025-10-26 R2']).toBe(1);
  });

  it("is INCONCLUSIVE when the store's clock drifted past --in-step from the simulated one", async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      day(f, 'Europe/Berlin', '2025-03-30').storeSkew.maxAbsMs = Number(f.params.inStep) + 1;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(check(judgement, IN_STEP)).toBe(false);
  });

  it("is INCONCLUSIVE when the store's clock did not move through a day", async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      const d = day(f, 'America/New_York', '2025-03-09');
      d.storeEndMs = d.storeStartMs;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(check(judgement, IN_STEP)).toBe(false);
  });

  it("is INCONCLUSIVE when the store's clock was never read", async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      for (const d of observed(f).days) d.storeSkew = { readings: 0, maxAbsMs: 0 };
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(check(judgement, IN_STEP)).toBe(false);
  });

  it("is INCONCLUSIVE when a fire's work had not settled at its instant", async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      const d = day(f, 'Europe/Berlin', '2025-10-26');
      d.unsettled.push({ replica: 'R1', simMs: d.fires[0]!.simMs });
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(check(judgement, SETTLED)).toBe(false);
  });

  it("is INCONCLUSIVE, not FAIL, when a replica's scheduler was never armed", async () => {
    const { verdict, judgement } = await rejudge(skipped, (f) => {
      day(f, 'Europe/Berlin', '2025-03-30').unarmed.push('R3');
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(check(judgement, ARMED)).toBe(false);
  });

  it('is INCONCLUSIVE when a budget stopped a day before it fired too often, saying how far it got, with the days not simulated named', async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      const o = observed(f);
      o.days = o.days.slice(0, 2);
      o.days[1]!.stopped = stopped;
      o.days[1]!.fires = [];
      o.skipped = ['Europe/Berlin 2025-10-26', 'America/New_York 2025-11-02'];
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(check(judgement, WITHIN_BUDGET)).toBe(false);
    expect(judgement.preconditions.find((c) => c.name === WITHIN_BUDGET)!.detail).toMatch(
      /stopped at .*: replica R2 spent its CPU budget \(60\.0 s of 60 s\) on 1600000 timers, the last ones at 1000 per simulated second; no fire until then: .*not judged; not simulated after it: Europe\/Berlin 2025-10-26, America\/New_York 2025-11-02$/,
    );
  });

  it('FAILs a day that ran to its end within its budgets with no fire (a storm that never fires), and is INCONCLUSIVE had a budget stopped it', async () => {
    const quiet = (f: JudgeFixture) => {
      day(f, 'Europe/Berlin', '2025-10-26').fires = [];
    };
    const { verdict, judgement } = await rejudge(good, quiet);
    expect(verdict).toBe('FAIL');
    expect(judgement.counts['Europe/Berlin 2025-10-26 fires']).toBe(0);
    const cut = await rejudge(good, (f) => {
      quiet(f);
      day(f, 'Europe/Berlin', '2025-10-26').stopped = stopped;
    });
    expect(cut.verdict).toBe('INCONCLUSIVE');
  });

  it('FAILs a day a budget stopped after it had already fired too often', async () => {
    const { verdict, judgement } = await rejudge(repeated, (f) => {
      day(f, 'America/New_York', '2025-11-02').stopped = stopped;
    });
    expect(verdict).toBe('FAIL');
    expect(check(judgement, WITHIN_BUDGET)).toBe(true);
    expect(judgement.counts['America/New_York 2025-11-02 stoppedAtSimulatedMs']).toBe(stopped.simulatedMs);
  });

  it('FAILs the recorded node-cron storm, which ran its day to the end inside the CPU budget with no fire, and is INCONCLUSIVE had the budget stopped it', async () => {
    const { verdict, judgement } = await rejudge(storming);
    expect(verdict).toBe('FAIL');
    expect(judgement.counts['Europe/Berlin 2025-10-26 fires']).toBe(0);
    expect(judgement.counts['Europe/Berlin 2025-10-26 timers']).toBeGreaterThan(1_000_000);
    const cut = await rejudge(storming, (f) => {
      day(f, 'Europe/Berlin', '2025-10-26').stopped = stopped;
    });
    expect(cut.verdict).toBe('INCONCLUSIVE');
  });
});
