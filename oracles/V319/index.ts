/**
 * V319 — DST and local-time schedules, coordinated by a fleet lock.
 *
 * Scenario: a fleet of --replicas replica processes each start the target's scheduler (its real
 * cron library) with the process's TZ set to the day's zone (or --host-tz), on their own simulated clocks (Date
 * and timers fake), and are driven through each local day in --days (by default both transition
 * days of Europe/Berlin and America/New_York) in seconds. The store's wall clock is stepped with
 * the simulated one, so the fleet lock's TTL lapses in simulated time.
 * Property: on every day the job fires --per-day times across the fleet (fires counted per local
 * day and per replica).
 * Each replica runs on alone, inside its process, through its timers up to the next instant whose
 * timers start async work waiting on I/O, and waits there while its wire proxy holds what it sends; the store's
 * clock is stepped to the fleet's earliest such instant before the work of the replicas stopped
 * there is let through and settles (so a scheduler waking every 30 s costs a few round trips a day,
 * and the store sees every command at its own instant). A scheduler that storms (a million zero-delay
 * timers through a fall-back day) runs to the day's end as long as no replica spends more than
 * --cpu-budget ms of its own CPU on the day and the day takes less than its real-time budget (the
 * replicas' CPU budgets end to end, plus 30 s); past either the day stops where it got to, and that
 * day and the run end there (the days after it are not simulated), with how far it got, what it
 * cost and its fires until then.
 * Preconditions: every replica's scheduler was armed; every day ran to its end within its CPU and
 * real-time budgets (or had already fired more than --per-day times when it was stopped); the work of every fire settled at its own
 * simulated instant; the store's clock was in step with the simulated one (read after every
 * instant that did work) and moved through the whole day.
 * Window: each simulated day, judged only while the store's clock is within --in-step of the
 * simulated one at every instant that did work (every fire and every lock command runs in one; the
 * store's clock runs on in real time while that work settles, so a stalled or starved replica drifts
 * it) and every fire's work settled at its own instant: a lease decided by the store's clock is then
 * off by at most 2 × --in-step (1 s by default, against fleet locks of minutes). Else INCONCLUSIVE.
 * Files: play.ts runs the days and records V319Observations (observations.ts); judge.ts judges
 * them, a pure function; params.ts declares the parameters.
 */
import { defineOracle } from '../../src/oracle/definition.ts';
import { parseZoneDays } from '../../scenarios/zone-days.ts';
import { judgeV319, V319_PRECONDITIONS } from './judge.ts';
import { dayRealBudgetMs, v319Params } from './params.ts';
import { playV319 } from './play.ts';

export default defineOracle({
  id: 'V319',
  title: 'DST and local-time schedules, coordinated',
  class: 'CK-4 local-time schedule across DST transitions under a fleet lock',
  scenario:
    "A fleet of replicas runs the target's schedule under its fleet lock on simulated clocks in the job's zone, through the spring and autumn transition days, with the store's clock kept in step.",
  property: 'On every simulated local day the job fires the documented number of times across the fleet.',
  stores: ['redis', 'valkey'],
  holders: ['R1', 'R2', 'R3'],
  params: v319Params,
  preconditions: V319_PRECONDITIONS,
  needs: () => ['schedule'],
  validate: (p) => {
    const problems: string[] = [];
    try {
      parseZoneDays(p.days);
    } catch (error) {
      problems.push(`--days: ${(error as Error).message}`);
    }
    if (p.hostTz) {
      try {
        new Intl.DateTimeFormat('en', { timeZone: p.hostTz });
      } catch {
        problems.push(`--host-tz: ${JSON.stringify(p.hostTz)} is not an IANA time zone (e.g. UTC, Europe/Berlin)`);
      }
    }
    return problems;
  },
  // A simulated day's real length is not a parameter: its round trips (one per instant that starts
  // work, up to 90 000 for a job polling the store every simulated second) and the timers the
  // replicas run (a day is stopped at its real-time budget): a minute per day past that budget.
  deadlineMs: (p) => 60_000 + (60_000 + dayRealBudgetMs(p)) * parseZoneDays(p.days).length + 3 * p.settleTimeout,
  storeRequest: (_p, kind) => ({ kind, clockOffsetMs: 0 }),
  // croner's references run the days that matter (its Berlin days); `cron`'s run all four.
  references: [
    { target: 'targets/clock/croner-0230-tz.ts', expect: 'FAIL', params: { days: 'Europe/Berlin:2025-03-30' } },
    { target: 'targets/clock/cron-0230-ten-minute-lock.ts', expect: 'FAIL' },
    {
      target: 'targets/clock/croner-utc.ts',
      expect: 'PASS',
      params: { days: 'Europe/Berlin:2025-03-30,Europe/Berlin:2025-10-26' },
    },
    { target: 'targets/clock/cron-0230-date-key-lock.ts', expect: 'PASS' },
    // On a host running in UTC the same croner schedule (no zone of its own) fires at 02:30 UTC:
    // once every Berlin day, the transition days included.
    {
      target: 'targets/clock/croner-0230-tz.ts',
      expect: 'PASS',
      params: { days: 'Europe/Berlin:2025-03-30', hostTz: 'UTC' },
    },
    // node-cron on a Berlin host storms through the fall-back day's repeated hour and never fires:
    // the day runs to its end inside the CPU budget (about 36 s of CPU a replica) and FAILs with 0 fires.
    // A CPU budget of 150 s (real-time budget 330 s): the default's 150 s of real time stopped the day
    // at load 10–14 (two replicas storming on a shared 2-core machine took 140 s at load 8): INCONCLUSIVE.
    {
      target: 'targets/clock/node-cron-0230-berlin.ts',
      expect: 'FAIL',
      params: { days: 'Europe/Berlin:2025-10-26', replicas: 2, cpuBudget: 150_000 },
    },
    {
      target: 'targets/clock/node-cron-0230-berlin.ts',
      expect: 'PASS',
      params: { days: 'Europe/Berlin:2025-10-26', replicas: 2, hostTz: 'UTC' },
    },
  ],
  // Each good reference with its guard removed must FAIL (lock-oracles selfcheck).
  mutations: [
    {
      of: 'targets/clock/cron-0230-date-key-lock.ts',
      guard: 'the fleet lock keyed by the local date and held for the day (a 10-minute lock on a fixed key)',
      edits: [
        ['const DAY_LOCK_MS = 25 * 3600 * 1000;', 'const DAY_LOCK_MS = 10 * 60 * 1000;'],
        ['`${env.key}:${localDateNow()}`', 'env.key'],
      ],
    },
  ],

  play: playV319,
  judge: judgeV319,
});
