/**
 * V316 — a wall-clock duration guards a timeout or a lease.
 *
 * Scenario: each holder gets its own wall clock (only `Date` is fake; monotonic time and timers are
 * real) and runs one operation guarded by the target's timeout of --ttl ms. Halfway through, the
 * harness steps holder A's wall clock back by --step ms and holder B's forward by --step ms.
 * Property: each guard fires at the right monotonic time: --ttl ms after the operation began,
 * within --tolerance ms, measured on the holder's own monotonic clock from the moment its call
 * began to the moment it reported the timeout (so the IPC latency of a loaded machine, which
 * delays the call's start and the report's arrival at the harness, is not counted against it).
 * Preconditions: each step landed mid-operation (after the operation began, before its limit, before
 * its guard fired, and while the operation was still running); each operation was still running
 * when its limit came, or its guard fired (one that returns on its own first never needed its guard).
 * Window: each operation from its start to --ttl + 2 × --tolerance ms later (a firing is timed on the
 * holder's own monotonic clock, so a late IPC cannot move it); no store lease is involved. A guard
 * silent by then is asked twice for its clock (its event loop goes round, running a timer due while
 * its process was starved) before it counts as not firing. A firing late by more than --tolerance
 * counts only when its clock was stepped back by about that much (within --tolerance of the step):
 * a process starved of CPU fires a correct guard late, never early, and not by the step (else
 * INCONCLUSIVE, when no other firing counts).
 * timeout() that throws without having reported its timeout is the target's error (ERROR).
 */
import { defineOracle } from '../src/oracle/definition.ts';
import { type Check, nothingProven } from '../src/core/judgement.ts';
import type { HistoryEvent } from '../src/core/history.ts';
import type { EffectRecord } from '../src/core/resource.ts';
import { throwIfTargetThrew, type Holder, type CallOutcome } from '../src/holder/holder.ts';

interface Leg {
  holder: Holder;
  deltaMs: number;
  call: Promise<CallOutcome>;
  startedAt: number;
  /** When the operation returned (harness time), once it has. */
  endedAt?: number;
  /** When the call began and ended by the holder's own clock, once it returned. */
  span?: { began: number; ended: number };
  outcome?: CallOutcome;
  step?: HistoryEvent;
}

export default defineOracle({
  id: 'V316',
  title: 'Wall-clock duration guarding a timeout or lease',
  class: 'CK-1 wall-clock duration guarding a timeout or lease',
  scenario:
    "Each holder runs an operation guarded by the target's timeout; halfway through, A's wall clock is stepped back and B's forward (only Date moves; monotonic time stays real).",
  property: 'Each timeout fires --ttl ms after its operation began on the monotonic clock, within --tolerance ms.',
  stores: ['redis', 'valkey'],
  holders: ['A', 'B'],
  params: {
    ttl: { kind: 'ms', default: 1000, min: 50, doc: 'the timeout the target guards its operation with (env.ttlMs)' },
    step: {
      kind: 'ms',
      default: 10_000,
      min: 1,
      max: 86_400_000,
      waited: false,
      doc: 'how far the wall clock is stepped: A back, B forward',
    },
    tolerance: {
      kind: 'ms',
      default: 250,
      min: 1,
      doc: 'how far from --ttl a firing may land and still count as on time',
    },
    direction: {
      kind: 'choice',
      default: 'both',
      choices: ['both', 'back', 'forward'],
      doc: 'which steps to apply (back: A only; forward: B only)',
    },
  },
  needs: () => ['timeout'],
  validate: (p) =>
    p.tolerance * 2 >= p.ttl
      ? [
          `--tolerance (${p.tolerance}) must be under half of --ttl (${p.ttl}), or an early firing at the mid-operation step would count as on time`,
        ]
      : [],
  references: [
    { target: 'targets/clock/timeout-wall-clock.ts', expect: 'FAIL' },
    { target: 'targets/clock/timeout-deadline-wall-clock.ts', expect: 'FAIL' },
    { target: 'targets/clock/timeout-monotonic.ts', expect: 'PASS' },
    { target: 'targets/clock/timeout-abort-signal.ts', expect: 'PASS' },
  ],
  // Each good reference with its guard removed must FAIL (lock-oracles selfcheck).
  mutations: [
    {
      of: 'targets/clock/timeout-monotonic.ts',
      guard: 'the monotonic clock (elapsed time read from Date.now())',
      edits: [
        ['const start = performance.now();', 'const start = Date.now();'],
        ['if (performance.now() - start > env.ttlMs)', 'if (Date.now() - start > env.ttlMs)'],
      ],
    },
  ],

  async play(s, p) {
    const plan = [
      ...(p.direction !== 'forward' ? [{ id: 'A', deltaMs: -p.step }] : []),
      ...(p.direction !== 'back' ? [{ id: 'B', deltaMs: p.step }] : []),
    ];
    const holders = await Promise.all(plan.map((leg) => s.holder(leg.id)));
    await Promise.all(holders.map((h) => h.clock({ op: 'install-wall', offsetMs: 0 })));

    s.progress(`${plan.map((l) => l.id).join(' and ')} start operations guarded by a ${p.ttl} ms timeout`);
    const legs: Leg[] = plan.map((leg, i) => {
      const holder = holders[i]!;
      const entry: Leg = { holder, deltaMs: leg.deltaMs, startedAt: s.now(), call: holder.call('timeout') };
      entry.call.then(
        (outcome) => {
          entry.endedAt = outcome.endedAt;
          entry.span = outcome.holderSpan;
          entry.outcome = outcome;
        },
        () => undefined,
      );
      return entry;
    });
    await s.sleep(p.ttl / 2);
    await Promise.all(
      legs.map(async (leg) => {
        const fault = s.faults.apply(
          'clock',
          leg.holder.id,
          `wall clock stepped ${leg.deltaMs > 0 ? 'forward' : 'back'} ${Math.abs(leg.deltaMs)} ms`,
          {
            deltaMs: leg.deltaMs,
          },
        );
        await leg.holder.clock({ op: 'step', deltaMs: leg.deltaMs });
        leg.step = s.history.filter((e) => e.kind === 'clock-step' && e.holder === leg.holder.id).at(-1);
        s.faults.lift(fault);
      }),
    );
    s.progress(`clocks stepped; waiting up to ${p.ttl + 2 * p.tolerance} ms from each start for the timeouts`);
    const waitFor = p.ttl + 2 * p.tolerance;
    await Promise.all(legs.map((leg) => s.within(leg.call, Math.max(0, leg.startedAt + waitFor - s.now()))));
    // A timeout that fired is timed from the call's start by the holder's clock, which its result carries.
    const firedFor = (leg: Leg) => s.resource.effects().find((e) => e.holder === leg.holder.id && e.name === 'timeout');
    // A guard not seen firing by then may be one whose process was starved of CPU when it was due:
    // two clock reads answered one after the other let its event loop go round (its due timers run)
    // at least once, so a guard still silent after them was not due by its own reckoning.
    for (const leg of legs.filter((l) => !firedFor(l))) {
      // (A holder that died answers nothing: the engine's check that every holder lived says so.)
      for (let round = 0; round < 2; round++)
        await s.within(
          leg.holder.clock({ op: 'read' }, false).catch(() => undefined),
          10_000,
        );
    }
    await Promise.all(legs.filter((leg) => firedFor(leg) && !leg.span).map((leg) => s.within(leg.call, 10_000)));
    // Firing is reported with env.effect("timeout"); a throw before that is the target's error.
    for (const leg of legs) {
      if (!firedFor(leg))
        throwIfTargetThrew(
          leg.holder.id,
          'timeout',
          leg.outcome,
          'without reporting its timeout (env.effect("timeout"))',
        );
    }

    const preconditions: Check[] = [];
    const results = legs.map((leg) => {
      const fired = firedFor(leg);
      const stepAt = leg.step?.t;
      const sentAt = Number(leg.step?.detail.sentAt);
      const endedFirst = fired === undefined && leg.endedAt !== undefined && leg.endedAt <= sentAt;
      const landed =
        stepAt !== undefined &&
        stepAt > leg.startedAt &&
        stepAt < leg.startedAt + p.ttl &&
        (fired === undefined || fired.t > sentAt) &&
        !endedFirst;
      preconditions.push({
        name: `${leg.holder.id}'s wall-clock step landed mid-operation`,
        held: landed,
        detail:
          stepAt === undefined
            ? `${leg.holder.id}'s clock was never stepped`
            : `${leg.holder.id}'s operation began at ${leg.startedAt} ms; its clock was stepped ${leg.deltaMs > 0 ? '+' : ''}${leg.deltaMs} ms at ${stepAt} ms ` +
              `(limit at ${(leg.startedAt + p.ttl).toFixed(1)} ms)${fired && !landed ? `, but its timeout had already fired at ${fired.t} ms` : ''}` +
              (endedFirst
                ? `, but its operation had already returned at ${leg.endedAt} ms without its timeout firing: the guard was no longer running when the clock moved`
                : ''),
      });
      const returnedEarly = fired === undefined && leg.endedAt !== undefined && leg.endedAt < leg.startedAt + p.ttl;
      preconditions.push({
        name: `${leg.holder.id}'s operation was still running when its timeout was due`,
        held: !returnedEarly,
        detail: returnedEarly
          ? `${leg.holder.id}'s operation returned on its own at ${leg.endedAt} ms, ${(leg.endedAt! - leg.startedAt).toFixed(1)} ms after it began and before its ${p.ttl} ms limit, without its timeout firing: the guard was never needed, so its timing was not tested`
          : fired
            ? `${leg.holder.id}'s timeout fired at ${fired.t} ms`
            : `${leg.holder.id}'s operation ${leg.endedAt === undefined ? 'was still running' : `returned at ${leg.endedAt} ms`}, past its limit at ${(leg.startedAt + p.ttl).toFixed(1)} ms, without its timeout firing`,
      });
      const elapsed = fired
        ? fired.holderAt !== undefined && leg.span
          ? fired.holderAt - leg.span.began
          : fired.t - leg.startedAt
        : undefined;
      const onTime = elapsed !== undefined && Math.abs(elapsed - p.ttl) <= p.tolerance;
      // A process starved of CPU fires a timer late, never early, and by its own lateness, not the
      // step's: a late firing counts only when the clock was stepped back by about that much.
      const lateBy = elapsed === undefined ? undefined : elapsed - p.ttl;
      const lateNotByStep =
        lateBy !== undefined && lateBy > p.tolerance && !(leg.deltaMs < 0 && lateBy >= -leg.deltaMs - p.tolerance);
      return { leg, fired, elapsed, onTime, lateBy, lateNotByStep };
    });

    const late = results.filter((r) => !r.onTime && !r.lateNotByStep);
    const starved = results.filter((r) => r.lateNotByStep);
    if (late.length === 0) {
      for (const r of starved) {
        preconditions.push({
          name: `${r.leg.holder.id}'s late firing is its wall-clock step's doing`,
          held: false,
          detail:
            `${r.leg.holder.id}'s timeout fired ${r.lateBy!.toFixed(1)} ms late by its own monotonic clock, but its wall clock was stepped ${r.leg.deltaMs > 0 ? 'forward' : 'back'} ${Math.abs(r.leg.deltaMs)} ms: ` +
            (r.leg.deltaMs > 0
              ? 'a step forward makes a guard on the wall clock fire early, never late'
              : `a guard on the wall clock would fire about ${Math.abs(r.leg.deltaMs)} ms late`) +
            ', so its process was late (starved of CPU on a loaded machine), not its guard following the wall clock',
        });
      }
    }
    const offending: Array<HistoryEvent | EffectRecord> = late.flatMap((r) => [
      ...(r.leg.step ? [r.leg.step] : []),
      ...(r.fired ? [r.fired] : []),
    ]);
    const describe = (r: (typeof results)[number]) =>
      r.elapsed === undefined
        ? `${r.leg.holder.id} (clock ${r.leg.deltaMs > 0 ? 'forward' : 'back'}): no timeout within ${waitFor} ms`
        : `${r.leg.holder.id} (clock ${r.leg.deltaMs > 0 ? 'forward' : 'back'}): fired after ${r.elapsed.toFixed(1)} ms`;
    const counts: Record<string, number> = { limitMs: p.ttl, toleranceMs: p.tolerance, stepMs: p.step };
    for (const r of results) {
      counts[`${r.leg.holder.id}FiredAfterMs`] = r.elapsed === undefined ? -1 : Math.round(r.elapsed * 10) / 10;
      counts[`${r.leg.holder.id}ErrorMs`] =
        r.elapsed === undefined ? -1 : Math.round(Math.abs(r.elapsed - p.ttl) * 10) / 10;
    }
    const held = late.length === 0;
    return {
      preconditions,
      counts,
      property: {
        name: `each timeout fires ${p.ttl} ms (±${p.tolerance} ms) after its operation began`,
        held,
        detail: results.map(describe).join('; '),
        offending: held ? [] : offending,
      },
      explanation: explain(),
    };

    function explain(): string {
      const unproven = nothingProven(preconditions);
      if (unproven) return unproven;
      if (held) {
        return (
          `Each holder's wall clock was stepped by ${p.step} ms (${results.map((r) => `${r.leg.holder.id} ${r.leg.deltaMs > 0 ? 'forward' : 'back'}`).join(', ')}) halfway through a ${p.ttl} ms timeout, ` +
          `and every timeout still fired on time by the monotonic clock (${results.map(describe).join('; ')}): the guard does not read the wall clock.`
        );
      }
      return (
        `Halfway through a ${p.ttl} ms timeout the holders' wall clocks were stepped by ${p.step} ms, as NTP or a VM migration may do. ` +
        `The guard followed the wall clock: ${late.map(describe).join('; ')}, against a limit of ${p.ttl} ms (±${p.tolerance} ms). ` +
        `A step back delays a timeout or lease check by the size of the step; a step forward fires it early. Measure durations with performance.now() or process.hrtime.bigint(), or use a timer (setTimeout, AbortSignal.timeout).`
      );
    }
  },
});
