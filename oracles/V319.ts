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
 * timers start async work, and waits there while its wire proxy holds what it sends; the store's
 * clock is stepped to the fleet's earliest such instant before the work of the replicas stopped
 * there is let through and settles (so a scheduler waking every 30 s costs a few round trips a day,
 * and the store sees every command at its own instant). A replica that runs more than
 * --timer-budget timers in a day stops that day and the run (the days after it are not simulated)
 * (a timer storm, reported with its rate).
 * Preconditions: every replica's scheduler was armed; every day ran to its end within the timer
 * budget (or had already fired more than --per-day times when the storm stopped it); the work of every fire settled at its own
 * simulated instant; the store's clock was in step with the simulated one (read after every
 * instant that did work) and moved through the whole day.
 * Window: each simulated day, judged only while the store's clock is within --in-step of the
 * simulated one at every instant that did work (every fire and every lock command runs in one; the
 * store's clock runs on in real time while that work settles, so a stalled or starved replica drifts
 * it) and every fire's work settled at its own instant: a lease decided by the store's clock is then
 * off by at most 2 × --in-step (1 s by default, against fleet locks of minutes). Else INCONCLUSIVE.
 */
import { Redis } from 'ioredis';
import { defineOracle } from '../src/oracle/definition.ts';
import { type Check, nothingProven } from '../src/core/judgement.ts';
import type { HistoryEvent } from '../src/core/history.ts';
import { runSimulatedDay, type DayRun } from '../scenarios/simulated-day.ts';
import { localTime, parseZoneDays } from '../scenarios/zone-days.ts';

const TRANSITION_DAYS =
  'Europe/Berlin:2025-03-30,Europe/Berlin:2025-10-26,America/New_York:2025-03-09,America/New_York:2025-11-02';

export default defineOracle({
  id: 'V319',
  title: 'DST and local-time schedules, coordinated',
  class: 'CK-4 local-time schedule across DST transitions under a fleet lock',
  scenario:
    "A fleet of replicas runs the target's schedule under its fleet lock on simulated clocks in the job's zone, through the spring and autumn transition days, with the store's clock kept in step.",
  property: 'On every simulated local day the job fires the documented number of times across the fleet.',
  stores: ['redis', 'valkey'],
  holders: ['R1', 'R2', 'R3'],
  params: {
    replicas: { kind: 'count', default: 3, min: 2, max: 8, doc: 'replica processes in the fleet' },
    days: { kind: 'text', default: TRANSITION_DAYS, doc: 'local days to simulate, Zone:YYYY-MM-DD, comma-separated' },
    perDay: { kind: 'count', default: 1, min: 0, doc: 'documented fires per local day across the fleet' },
    ttl: {
      kind: 'ms',
      default: 600_000,
      min: 1,
      max: 86_400_000,
      waited: false,
      doc: 'the fleet lock TTL the target is asked to use (env.ttlMs), in simulated time',
    },
    settleTimeout: {
      kind: 'ms',
      default: 3000,
      min: 10,
      doc: 'real ms a replica may take to finish the work one fire started',
    },
    inStep: {
      kind: 'ms',
      default: 1000,
      min: 1,
      doc: 'largest store-clock minus simulated-clock difference accepted as in step',
    },
    timerBudget: {
      kind: 'count',
      default: 100_000,
      min: 1,
      max: 100_000_000,
      doc: 'timers a replica may run in one simulated day (a poll every simulated second is 90 000 on a 25 h day); past it the day stops as a timer storm and the days after it are not simulated',
    },
    hostTz: {
      kind: 'text',
      default: '',
      doc: "the replicas' TZ (e.g. UTC, a host not running in the job's zone); empty: each day's own zone",
    },
  },
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
  // replicas run (up to --timer-budget each): a minute per day.
  deadlineMs: (p) => 60_000 + 60_000 * parseZoneDays(p.days).length + 3 * p.settleTimeout,
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

  async play(s, p) {
    const storeClock = s.store.capabilities.clock;
    if (!storeClock)
      throw new Error(
        `the ${s.store.kind} store was started without a clock; V319 needs the store's clock in step with the simulated one`,
      );
    const probe = new Redis(s.store.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    probe.on('error', () => undefined);
    s.onClose(async () => probe.disconnect());
    const storeNow = async () => {
      const [seconds, micros] = (await probe.time()) as [string | number, string | number];
      return Number(seconds) * 1000 + Number(micros) / 1000;
    };
    const ids = Array.from({ length: p.replicas }, (_, i) => `R${i + 1}`);
    // Each replica behind its own wire proxy: what it sends is held there while its clock is ahead of the store's.
    const replicas = await Promise.all(
      ids.map(async (id) => {
        const wire = await s.wire(id);
        return { holder: await s.holder(id, { url: wire.url }), wire };
      }),
    );
    const days = parseZoneDays(p.days);

    const runs: DayRun[] = [];
    const dayEvents = new Map<DayRun, HistoryEvent>();
    for (const day of days) {
      s.progress(
        `simulating ${day.date} in ${day.zone} (${(day.endMs - day.startMs) / 3_600_000} h) on ${p.replicas} replicas`,
      );
      const run = await runSimulatedDay(s, replicas, storeClock, day, {
        settleTimeoutMs: p.settleTimeout,
        storeNow,
        timerBudget: p.timerBudget,
        ...(p.hostTz ? { hostZone: p.hostTz } : {}),
      });
      runs.push(run);
      const event = s.history.add('note', undefined, {
        text: `simulated ${day.zone} ${day.date}`,
        fires: run.fires.map((f) => ({ replica: f.replica, at: localTime(day.zone, f.simMs), seq: f.effect.seq })),
        advances: run.advances,
        workingAdvances: run.workingAdvances,
        timers: run.timers,
        ...(run.storm ? { storm: run.storm } : {}),
        wallMs: Math.round(run.wallMs),
        storeSkewMaxMs: Math.round(Math.max(0, ...run.storeSkewsMs.map(Math.abs))),
      });
      dayEvents.set(run, event);
      // A storm decides the run (INCONCLUSIVE, or FAIL when that day already fired too often); the
      // next days would storm too and only spend the run's deadline.
      if (run.storm) break;
    }
    const skipped = days.slice(runs.length).map((d) => `${d.zone} ${d.date}`);

    const label = (run: DayRun) => `${run.day.zone} ${run.day.date}`;
    const preconditions: Check[] = [];
    const unarmed = runs.filter((r) => r.unarmed.length);
    preconditions.push({
      name: "every replica's scheduler was armed",
      held: unarmed.length === 0,
      detail: unarmed.length
        ? unarmed.map((r) => `${label(r)}: ${r.unarmed.join(', ')} had no timer pending after schedule()`).join('; ')
        : `after schedule() every replica had a timer pending on each of ${runs.length} day(s)`,
    });
    // A storm stops a day early: its count is only judged when it is already too high.
    const unjudged = runs.filter((r) => r.storm && r.fires.length <= p.perDay);
    preconditions.push({
      name: 'every day ran to its end within the timer budget',
      held: unjudged.length === 0,
      detail: runs.some((r) => r.storm)
        ? runs
            .filter((r) => r.storm)
            .map(
              (r) =>
                `${label(r)}: ${stormText(r)}${r.fires.length > p.perDay ? `, after ${r.fires.length} fire(s) already` : ''}`,
            )
            .join('; ') + (skipped.length ? `; not simulated after the storm: ${skipped.join(', ')}` : '')
        : `no replica ran more than ${p.timerBudget} timers in a day (most: ${Math.max(0, ...runs.flatMap((r) => Object.values(r.timers)))})`,
    });
    const unsettled = runs.flatMap((r) => r.unsettled.map((u) => `${u.replica} at ${localTime(r.day.zone, u.simMs)}`));
    preconditions.push({
      name: "each fire's work settled at its own simulated instant",
      held: unsettled.length === 0,
      detail: unsettled.length
        ? `work was still pending after ${p.settleTimeout} ms real: ${unsettled.slice(0, 5).join('; ')}`
        : `the work of every instant that did work settled before the clocks moved on (${runs.reduce((n, r) => n + r.workingAdvances, 0)} such instants)`,
    });
    const skews = runs.flatMap((r) => r.storeSkewsMs);
    const maxSkew = Math.max(0, ...skews.map(Math.abs));
    const drift = runs.map((r) => ({
      run: r,
      storeMoved: r.storeEndMs - r.storeStartMs,
      simulated: r.endedMs - r.day.startMs,
    }));
    const moved = drift.every((d) => Math.abs(d.storeMoved - d.simulated) <= p.inStep + d.run.wallMs);
    preconditions.push({
      name: "the store's clock was in step with the simulated clock",
      held: skews.length > 0 && maxSkew <= p.inStep && moved,
      detail:
        `${skews.length} reading(s) of the store's clock (TIME), at each day's start and end and right after every instant that did work settled, differed from the simulated instant by at most ${maxSkew.toFixed(1)} ms (accepted: ${p.inStep} ms); ` +
        drift
          .map(
            (d) =>
              `${label(d.run)}: store clock moved ${(d.storeMoved / 3_600_000).toFixed(3)} h for ${(d.simulated / 3_600_000).toFixed(3)} h simulated`,
          )
          .join('; ') +
        `; mechanism: ${storeClock.mechanism}`,
    });

    const counts: Record<string, number> = {};
    const wrong: DayRun[] = [];
    for (const run of runs) {
      counts[`${label(run)} fires`] = run.fires.length;
      for (const id of ids) counts[`${label(run)} ${id}`] = run.fires.filter((f) => f.replica === id).length;
      counts[`${label(run)} wallMs`] = Math.round(run.wallMs);
      if (run.storm) counts[`${label(run)} stormTimers`] = run.storm.timers;
      if (run.storm ? run.fires.length > p.perDay : run.fires.length !== p.perDay) wrong.push(run);
    }
    counts.storeSkewMaxMs = Math.round(maxSkew * 10) / 10;
    const held = wrong.length === 0;
    const describe = (run: DayRun) =>
      `${label(run)}: ${run.fires.length} fire(s)${run.fires.length ? ` (${run.fires.map((f) => `${f.replica} at ${localTime(run.day.zone, f.simMs)}`).join(', ')})` : ''}`;
    return {
      preconditions,
      counts,
      property: {
        name: `the job fires ${p.perDay} time(s) on every local day across the fleet`,
        held,
        detail: runs.map(describe).join('; '),
        // A day's summary (its fires, or none) and every fire it had.
        offending: wrong.flatMap((r) => [dayEvents.get(r)!, ...r.fires.map((f) => f.effect)]),
      },
      explanation: explain(),
    };

    function stormText(run: DayRun): string {
      const storm = run.storm!;
      return `replica ${storm.replica} ran ${storm.timers} timers (budget ${p.timerBudget} a day) by ${localTime(run.day.zone, run.endedMs)}, the last half of them at ${storm.perSimulatedSecond} per simulated second: a timer storm, so the day was stopped there`;
    }

    function explain(): string {
      const unproven = nothingProven(preconditions);
      if (unproven) return unproven;
      const setting =
        `${p.replicas} replicas ran the target's scheduler on their own simulated clocks through ${runs.map(label).join(', ')}, ` +
        `each day in ${Math.round(Math.max(...runs.map((r) => r.wallMs)))} ms or less of real time, with the store's clock stepped along (within ${maxSkew.toFixed(0)} ms) so the ${p.ttl} ms fleet lock lapsed in simulated time.`;
      if (held) return `${setting} The job fired ${p.perDay} time(s) on every day.`;
      return (
        `${setting} The job did not fire the documented ${p.perDay} time(s) a day: ${wrong.map(describe).join('; ')}. ` +
        `A local-time schedule meets a missing hour in spring and a repeated hour in autumn; a fleet lock shorter than the repeat (or keyed by the instant rather than the local date) does not stop a second run, and nothing makes up a skipped one. ` +
        `Schedule in UTC, keep the job's local time outside the transition hour, or key the lock (or a dedupe record) by the local date.`
      );
    }
  },
});
