/**
 * V317's judgement, a pure function of what play recorded: in every leg, B must be denied while A's
 * lease is live (no early takeover) and take over once it has lapsed (no skipped takeover). Judged
 * only when each leg's skew was in force, A took the lease, and an early takeover was answered
 * inside A's lease (an explored point: when A's clock step landed).
 */
import { type Check, type Judgement, nothingProven } from '../../src/core/judgement.ts';
import type { HistoryEvent } from '../../src/core/history.ts';
import type { ParamValues } from '../../src/core/params.ts';
import type { DeclaredCheck, Recorded } from '../../src/oracle/definition.ts';
import { FAULT_TEXT, signed, VARIANTS, type Variant } from './legs.ts';
import type { LegObservation, V317Observations } from './observations.ts';
import type { v317Params } from './params.ts';
import { judgeV317OnCluster, V317_CLUSTER_PRECONDITIONS } from './cluster-judge.ts';

export const CLOCK_STEPPED = "A's clock was stepped at the explored boundary";

/** Each leg's preconditions are named after its variant ("app-ahead: A took the lease"): one fixed name per variant. */
const perVariant = (name: string) =>
  Object.fromEntries(VARIANTS.map((variant) => [variant, `${variant}: ${name}`])) as Record<Variant, string>;
export const SKEW_HELD = perVariant('the skew was in force');
export const A_TOOK_LEASE = perVariant('A took the lease');
export const EARLY_TRY_IN_LEASE = perVariant("B's early try was answered inside A's lease");

export const V317_PRECONDITIONS: DeclaredCheck[] = [
  {
    name: CLOCK_STEPPED,
    checks: "an explored point: A's wall clock was stepped right before A prepared the command at the point's boundary",
  },
  ...VARIANTS.flatMap((variant) => [
    {
      name: SKEW_HELD[variant],
      checks:
        "the holders still reported the offsets asked for after B's last try, and the store's clock (its own time query) was within min(500, --skew / 2) ms of the offset asked",
    },
    { name: A_TOOK_LEASE[variant], checks: 'A was granted the lease B then tries to take' },
    {
      name: EARLY_TRY_IN_LEASE[variant],
      checks:
        "an early takeover counts only when B's try was answered within --ttl of when A's acquire began (else the lease may have lapsed on time)",
    },
  ]),
  ...V317_CLUSTER_PRECONDITIONS,
];

export function judgeV317(
  { observations: o, history }: Recorded<V317Observations>,
  p: ParamValues<typeof v317Params>,
): Judgement {
  if (o.cluster) return judgeV317OnCluster(o.cluster, p, history);
  const { point, legs } = o;
  const tolerance = Math.min(500, p.skew / 2);
  const preconditions: Check[] = point
    ? [
        {
          name: CLOCK_STEPPED,
          held: point.stepLanded,
          detail: point.stepLanded ? point.inWords : point.stepMissed,
        },
      ]
    : [];
  preconditions.push(
    ...legs.flatMap((leg) => [
      {
        name: SKEW_HELD[leg.variant],
        held:
          Math.abs(leg.measuredStoreSkewMs - leg.storeOffsetMs) <= tolerance &&
          leg.appOffsetsAfterMs.every((o, i) => o === leg.appOffsetsMs[i]),
        detail:
          `A's clock ${signed(leg.appOffsetsMs[0])} ms and B's ${signed(leg.appOffsetsMs[1])} ms (they still reported ${leg.appOffsetsAfterMs.map(signed).join(' and ')} ms after B's last attempt); ` +
          `store clock measured ${signed(Math.round(leg.measuredStoreSkewMs))} ms off real time (asked ${signed(leg.storeOffsetMs)} ms, accepted ±${tolerance} ms)`,
      },
      {
        name: A_TOOK_LEASE[leg.variant],
        held: leg.aLease !== null,
        detail: leg.aLease
          ? `A took the ${p.ttl} ms lease at ${leg.aAt} ms`
          : 'A was denied the lease, so nothing was tested',
      },
      // The window of an early takeover: A's lease, which lives at least --ttl from when A's acquire
      // began. A takeover answered after that (a loaded machine, a slow acquire) may be on time.
      ...(leg.early?.lease
        ? [
            {
              name: EARLY_TRY_IN_LEASE[leg.variant],
              held: leg.early.answeredAt < leg.aStartedAt + p.ttl,
              detail: `B tried at ${leg.early.at.toFixed(1)} ms and was answered at ${leg.early.answeredAt.toFixed(1)} ms; A's lease lived at least until ${(leg.aStartedAt + p.ttl).toFixed(1)} ms (${p.ttl} ms from when A's acquire began)${leg.early.answeredAt < leg.aStartedAt + p.ttl ? '' : ': B may have been granted a lease that had lapsed on time'}`,
            },
          ]
        : []),
    ]),
  );
  const early = legs.filter((l) => l.early?.lease);
  const skipped = legs.filter((l) => l.aLease && !l.early?.lease && !l.late?.lease);
  const held = early.length === 0 && skipped.length === 0;
  const acquireEvents = (leg: LegObservation): HistoryEvent[] =>
    history.filter(
      (e) => e.holder === 'B' && (e.kind === 'acquire-ok' || e.kind === 'acquire-denied') && e.t >= leg.aAt,
    );
  const describe = (leg: LegObservation) =>
    !leg.aLease
      ? `${leg.variant}: A was denied the lease, so B was not tried`
      : leg.early?.lease
        ? `${leg.variant}: B took over ${(leg.early.at - leg.aAt).toFixed(0)} ms into A's ${p.ttl} ms lease (early takeover; overlap ${(leg.aAt + p.ttl - leg.early.at).toFixed(0)} ms)`
        : leg.late?.lease
          ? `${leg.variant}: B was denied halfway and took over ${(leg.late.at - leg.aAt).toFixed(0)} ms after A (on time)`
          : `${leg.variant}: B was still denied ${leg.late ? (leg.late.at - leg.aAt).toFixed(0) : '?'} ms after A took a ${p.ttl} ms lease (skipped takeover)`;
  const counts: Record<string, number> = {
    ttlMs: p.ttl,
    skewMs: p.skew,
    earlyTakeovers: early.length,
    skippedTakeovers: skipped.length,
  };
  for (const leg of legs) {
    counts[`${leg.variant} overlapMs`] = leg.early?.lease ? Math.round(leg.aAt + p.ttl - leg.early.at) : 0;
    counts[`${leg.variant} measuredStoreSkewMs`] = Math.round(leg.measuredStoreSkewMs);
  }
  return {
    preconditions,
    counts,
    property: {
      name: 'no early takeover, no overlap, no skipped takeover',
      held,
      detail: legs.map(describe).join('; '),
      offending: [...early, ...skipped].flatMap(acquireEvents),
    },
    explanation: explain(),
  };

  function explain(): string {
    const unproven = nothingProven(preconditions);
    if (unproven) return unproven;
    const setting = point
      ? `${point.inWords} (by ${signed(legs[0]?.appOffsetsMs[0] ?? 0)} ms; B's and the store's clocks real); A took a ${p.ttl} ms lease; B tried halfway through it and again ${p.margin} ms after it lapsed.`
      : `A took a ${p.ttl} ms lease with one clock ${p.skew} ms ahead (${legs.map((l) => `${l.variant}: ${FAULT_TEXT[l.variant]}`).join(', then ')}); B tried halfway through it and again ${p.margin} ms after it lapsed.`;
    if (held) return `${setting} ${legs.map(describe).join('; ')}: the lease is written and compared on one clock.`;
    return (
      `${setting} ${[...early, ...skipped].map(describe).join('; ')}. ` +
      `The lease's expiry was computed on one clock and compared on another, so the skew between them moved the expiry by ${p.skew} ms. ` +
      `Write and compare on the same clock: \`lease_until = now() + interval\` in SQL, a store-side TTL (Redis PX, an etcd lease), the store's own stamp against its own clock (a ZooKeeper node's mtime against a probe's), or for a file lock its mtime aged on the contender's own monotonic clock since it first saw it.`
    );
  }
}
