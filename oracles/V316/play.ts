/**
 * V316's scenario: each holder gets its own wall clock and runs one operation guarded by the
 * target's timeout; halfway through, A's clock is stepped back and B's forward; the harness waits
 * for each guard to fire (and asks a silent one twice for its clock). Records what happened; judges
 * nothing.
 */
import type { ParamValues } from '../../src/core/params.ts';
import { throwIfTargetThrew, type CallOutcome, type Holder } from '../../src/holder/holder.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import type { LegHolder, V316Observations } from './observations.ts';
import type { v316Params } from './params.ts';

interface Leg {
  holder: Holder;
  deltaMs: number;
  call: Promise<CallOutcome>;
  startedAt: number;
  /** The call's outcome, once it returned. */
  outcome?: CallOutcome;
}

export async function playV316(s: Scenario, p: ParamValues<typeof v316Params>): Promise<V316Observations> {
  const plan: Array<{ id: LegHolder; deltaMs: number }> = [
    ...(p.direction !== 'forward' ? [{ id: 'A' as const, deltaMs: -p.step }] : []),
    ...(p.direction !== 'back' ? [{ id: 'B' as const, deltaMs: p.step }] : []),
  ];
  const holders = await Promise.all(plan.map((leg) => s.holder(leg.id)));
  await Promise.all(holders.map((h) => h.clock({ op: 'install-wall', offsetMs: 0 })));

  s.progress(`${plan.map((l) => l.id).join(' and ')} start operations guarded by a ${p.ttl} ms timeout`);
  const legs: Leg[] = plan.map((leg, i) => {
    const holder = holders[i]!;
    const entry: Leg = { holder, deltaMs: leg.deltaMs, startedAt: s.now(), call: holder.call('timeout') };
    entry.call.then(
      (outcome) => (entry.outcome = outcome),
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
      s.faults.lift(fault);
    }),
  );
  s.progress(`clocks stepped; waiting up to ${p.ttl + 2 * p.tolerance} ms from each start for the timeouts`);
  const waitFor = p.ttl + 2 * p.tolerance;
  await Promise.all(legs.map((leg) => s.within(leg.call, Math.max(0, leg.startedAt + waitFor - s.now()))));
  // A timeout that fired is timed from the call's start by the holder's clock, which its result carries.
  const fired = (leg: Leg) => s.resource.effects().some((e) => e.holder === leg.holder.id && e.name === 'timeout');
  // A guard not seen firing by then may be one whose process was starved of CPU when it was due:
  // two clock reads answered one after the other let its event loop go round (its due timers run)
  // at least once, so a guard still silent after them was not due by its own reckoning.
  for (const leg of legs.filter((l) => !fired(l))) {
    // (A holder that died answers nothing: the engine's check that every holder lived says so.)
    for (let round = 0; round < 2; round++)
      await s.within(
        leg.holder.clock({ op: 'read' }, false).catch(() => undefined),
        10_000,
      );
  }
  await Promise.all(
    legs.filter((leg) => fired(leg) && !leg.outcome?.holderSpan).map((leg) => s.within(leg.call, 10_000)),
  );
  // Firing is reported with env.effect("timeout"); a throw before that is the target's error.
  for (const leg of legs) {
    if (!fired(leg))
      throwIfTargetThrew(
        leg.holder.id,
        'timeout',
        leg.outcome,
        'without reporting its timeout (env.effect("timeout"))',
      );
  }
  return {
    legs: legs.map((leg, i) => ({
      holder: plan[i]!.id,
      deltaMs: leg.deltaMs,
      startedAt: leg.startedAt,
      endedAt: leg.outcome?.endedAt ?? null,
      span: leg.outcome?.holderSpan ?? null,
    })),
    watchedUntil: s.now(),
  };
}
