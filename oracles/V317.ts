/**
 * V317 — an expiry written on one clock and compared on another.
 *
 * Scenario, run once per leg: (app-ahead) the holders' wall clocks run --skew ms ahead of the
 * store's (fake `Date` in each holder; real store clock); (store-ahead) the store's wall clock runs
 * --skew ms ahead of the holders' (the store's clock offset); (a-ahead) A's clock alone runs --skew
 * ahead, B's and the store's are real; (b-ahead) B's alone. Each time A takes a --ttl ms lease,
 * B tries halfway through it, and again --margin ms after it should have lapsed.
 * Legs: --variant both = app-ahead, store-ahead (the app's clock against the store's); holders =
 * a-ahead, b-ahead (holder against holder: an expiry written on A's clock and compared on B's);
 * auto (default) = both on Postgres, holders on Redis (a Redis TTL is a duration the store counts
 * itself, so the comparison that can go wrong there is one holder's clock against another's).
 * Property: no early takeover (B denied while A's lease is live: no overlap) and no skipped event
 * (B takes over once the lease has lapsed), timed on the harness's monotonic clock.
 * Preconditions: the skew was in force when the lease was written and compared (the holders'
 * offsets from their clock replies; the store's measured against the real clock: Postgres
 * clock_timestamp(), Redis TIME); A took the lease.
 * Window: an early takeover counts only when B's try was answered inside A's lease — --ttl from
 * when A's acquire began, by the harness's monotonic clock (else INCONCLUSIVE: under load B's try can
 * come after the lease lapsed on time); a skipped takeover needs no window (B's late try is sent
 * --margin after the latest the lease could end).
 *
 * Explored (--explore): each command of A's acquire on the lock × A's wall clock stepped --skew ms
 * ahead or back right before A prepares that command (B's and the store's clocks real); one leg.
 */
import { defineOracle } from '../src/oracle/definition.ts';
import { UsageError } from '../src/core/errors.ts';
import { type Check, nothingProven } from '../src/core/judgement.ts';
import type { HistoryEvent } from '../src/core/history.ts';
import type { LeaseSummary } from '../src/holder/holder-protocol.ts';
import type { Scenario } from '../src/oracle/scenario.ts';
import type { StoreKind } from '../src/stores/types.ts';
import { armClockStep } from '../src/oracle/arm-point.ts';
import { traceAcquireRelease } from '../src/oracle/traces.ts';
import { boundaryLabel, pointInWords } from '../src/oracle/explore-point.ts';

type Variant = 'app-ahead' | 'store-ahead' | 'a-ahead' | 'b-ahead' | 'a-back';

const LEGS: Record<string, Variant[]> = {
  both: ['app-ahead', 'store-ahead'],
  holders: ['a-ahead', 'b-ahead'],
  'app-ahead': ['app-ahead'],
  'store-ahead': ['store-ahead'],
  'a-ahead': ['a-ahead'],
  'b-ahead': ['b-ahead'],
};

function legsFor(variant: string, kind: StoreKind): Variant[] {
  if (variant === 'auto') return kind === 'postgres' ? LEGS.both! : LEGS.holders!;
  return LEGS[variant]!;
}

/** Each clock's offset from real time in a leg: A's, B's, the store's. */
function offsetsFor(variant: Variant, skew: number): { a: number; b: number; store: number } {
  return {
    a: variant === 'app-ahead' || variant === 'a-ahead' ? skew : variant === 'a-back' ? -skew : 0,
    b: variant === 'app-ahead' || variant === 'b-ahead' ? skew : 0,
    store: variant === 'store-ahead' ? skew : 0,
  };
}

const FAULT_TEXT: Record<Variant, string> = {
  'app-ahead': "holders' wall clocks",
  'store-ahead': 'store wall clock',
  'a-ahead': "A's wall clock",
  'b-ahead': "B's wall clock",
  'a-back': "A's wall clock, stepped back",
};

interface Leg {
  variant: Variant;
  /** A's and B's offsets as asked. */
  appOffsetsMs: [number, number];
  storeOffsetMs: number;
  measuredStoreSkewMs: number;
  /** The holders' offsets as they reported them after B's last attempt. */
  appOffsetsAfterMs: number[];
  aLease: LeaseSummary | null;
  /** Harness time A's acquire began (its lease was written no earlier) and returned. */
  aStartedAt: number;
  aAt: number;
  /** B's try halfway: sent at `at`, answered at `answeredAt`. */
  early: { at: number; answeredAt: number; lease: LeaseSummary | null } | undefined;
  late: { at: number; lease: LeaseSummary | null } | undefined;
}

export default defineOracle({
  id: 'V317',
  title: 'Expiry written on one clock, compared on another',
  class: 'CK-2 expiry written on one clock and compared on another',
  scenario:
    "A takes a lease; B tries halfway through it and again just after it lapses. Postgres: the app clocks ahead of the database's, then the database's ahead; Redis: A's clock ahead of B's, then B's ahead of A's.",
  property: 'No early takeover (no overlap) and no skipped takeover, whichever clock is ahead.',
  stores: ['postgres', 'redis', 'valkey'],
  holders: ['A', 'B'],
  params: {
    ttl: { kind: 'ms', default: 1000, min: 100, doc: 'the lease TTL the target is asked to use (env.ttlMs)' },
    skew: { kind: 'ms', default: 5000, min: 1, doc: "how far one side's clock runs ahead of the other" },
    margin: { kind: 'ms', default: 300, min: 1, doc: 'how long after the lease lapses B tries again' },
    variant: {
      kind: 'choice',
      default: 'auto',
      choices: ['auto', 'both', 'holders', 'app-ahead', 'store-ahead', 'a-ahead', 'b-ahead'],
      doc: "which clock runs ahead; both: app-ahead then store-ahead; holders: a-ahead (A's clock alone) then b-ahead (B's alone); auto: both on Postgres, holders on Redis and Valkey",
    },
  },
  needs: () => ['acquire', 'release'],
  // B tries at ttl/2 and at ttl + margin: a skew smaller than either cannot move a takeover
  // across one of those tries, so such a run could not tell a bad target from a good one.
  validate: (p) =>
    p.skew > p.ttl / 2 && p.skew > p.margin
      ? []
      : [
          `--skew (${p.skew}) must exceed half of --ttl (${p.ttl / 2}) and --margin (${p.margin}): B's tries at ttl/2 and ttl + margin could not see a smaller skew`,
        ],
  storeRequest: (p, kind) => (legsFor(p.variant, kind).includes('store-ahead') ? { kind, clockOffsetMs: 0 } : { kind }),
  references: [
    { target: 'targets/clock/lease-app-clock-expiry.ts', expect: 'FAIL' },
    { target: 'targets/clock/lease-app-clock-expiry.ts', expect: 'FAIL', params: { variant: 'app-ahead' } },
    { target: 'targets/clock/lease-app-clock-expiry.ts', expect: 'FAIL', params: { variant: 'store-ahead' } },
    { target: 'targets/clock/lease-db-clock-expiry.ts', expect: 'PASS' },
    { target: 'targets/clock/redis-queue-app-clock-expiry.ts', expect: 'FAIL', store: 'redis' },
    { target: 'targets/clock/redis-queue-store-clock-expiry.ts', expect: 'PASS', store: 'redis' },
    {
      target: 'targets/clock/redis-queue-app-clock-expiry.ts',
      expect: 'PASS',
      store: 'redis',
      params: { variant: 'app-ahead' },
      knownBad:
        "both workers run the same skew, so an expiry written on one worker's clock and read on the other's is not moved; only holder against holder (a-ahead / b-ahead) shows it",
    },
  ],
  // Each good reference with its guard removed must FAIL (lock-oracles selfcheck).
  mutations: [
    {
      of: 'targets/clock/redis-queue-store-clock-expiry.ts',
      guard: "the store's clock for the expiry (the caller's Date.now() instead)",
      store: 'redis',
      edits: [
        ['import { CLAIM_ON_STORE_CLOCK, UNLOCK_IF_OWNER }', 'import { CLAIM_ON_CALLER_CLOCK, UNLOCK_IF_OWNER }'],
        [
          'eval(CLAIM_ON_STORE_CLOCK, 1, env.key, env.holder, env.ttlMs)',
          'eval(CLAIM_ON_CALLER_CLOCK, 1, env.key, env.holder, env.ttlMs, Date.now())',
        ],
      ],
    },
  ],

  explore: {
    part: 'acquire',
    faults: ['clock-ahead', 'clock-back'],
    params: {},
    doc: "every command of A's acquire on the lock: A's wall clock stepped --skew ms ahead, or back, right before A prepares it (B's and the store's clocks real); B tries halfway through A's lease and just after it lapses",
    references: {
      safe: [
        { target: 'targets/clock/redis-queue-store-clock-expiry.ts', store: 'redis' },
        { target: 'targets/clock/lease-db-clock-expiry.ts', store: 'postgres' },
      ],
    },
    trace: traceAcquireRelease(false),
  },

  async play(s, p) {
    // An explored point (--explore) is one leg: A's clock stepped at its boundary, nobody else's skewed.
    const point = s.point;
    const wireA = point ? await s.wire('A') : undefined;
    const variants: Variant[] = point
      ? [point.fault === 'clock-back' ? 'a-back' : 'a-ahead']
      : legsFor(p.variant, s.store.kind);
    const storeClock = s.store.capabilities.clock;
    if (variants.includes('store-ahead') && !storeClock)
      throw new Error(`the ${s.store.kind} store was started without a clock; V317's store-ahead leg needs to skew it`);
    const storeSkew = await storeSkewReader(s);
    const [a, b] = await Promise.all([s.holder('A', wireA ? { url: wireA.url } : {}), s.holder('B')]);
    let stepLanded: boolean | undefined;
    let stepMissed = `A's clock was never stepped: A's acquire did not run`;
    const tolerance = Math.min(500, p.skew / 2);
    const legs: Leg[] = [];

    for (const variant of variants) {
      const offsets = offsetsFor(variant, p.skew);
      const appOffsetsMs: [number, number] = [offsets.a, offsets.b];
      const storeOffsetMs = offsets.store;
      const holderFault = variant === 'a-ahead' || variant === 'a-back' ? 'A' : variant === 'b-ahead' ? 'B' : undefined;
      const what = point ? `${pointInWords(point)} (${signed(offsets.a)} ms)` : `${FAULT_TEXT[variant]} +${p.skew} ms`;
      const fault = s.faults.apply(variant === 'store-ahead' ? 'store' : 'clock', holderFault, what, {
        aOffsetMs: offsets.a,
        bOffsetMs: offsets.b,
        storeOffsetMs,
      });
      // A point starts every clock real; A's is stepped at the point, right before A prepares that command.
      await Promise.all(
        [a, b].map((h, i) =>
          h.clock({ op: legs.length ? 'set-offset' : 'install-wall', offsetMs: point ? 0 : appOffsetsMs[i]! }),
        ),
      );
      await storeClock?.setOffsetMs(storeOffsetMs);
      const measuredStoreSkewMs = await storeSkew();
      s.history.add('store-observed', undefined, {
        label: `${variant}: store clock minus real clock`,
        skewMs: Math.round(measuredStoreSkewMs),
      });
      s.progress(`${variant}: A takes a ${p.ttl} ms lease`);

      const step = point ? await armClockStep(point, a, wireA, s.lockKey, offsets.a) : undefined;
      const aStartedAt = s.now();
      const aLease = await a.acquire();
      const aAt = s.now();
      if (step) {
        step.settle();
        stepLanded = await step.landed;
        stepMissed = step.missed;
      }
      const leg: Leg = {
        variant,
        appOffsetsMs,
        storeOffsetMs,
        measuredStoreSkewMs,
        appOffsetsAfterMs: [],
        aLease,
        aStartedAt,
        aAt,
        early: undefined,
        late: undefined,
      };
      legs.push(leg);
      if (aLease) {
        await s.sleep(Math.max(0, aAt + p.ttl / 2 - s.now()));
        const at = s.now();
        const lease = await b.acquire();
        leg.early = { at, answeredAt: s.now(), lease };
        if (!leg.early.lease) {
          await s.sleep(Math.max(0, aAt + p.ttl + p.margin - s.now()));
          leg.late = { at: s.now(), lease: await b.acquire() };
        }
      }
      leg.appOffsetsAfterMs = (await Promise.all([a, b].map((h) => h.clock({ op: 'read' })))).map((r) =>
        Math.round(r.offsetMs),
      );
      for (const [holder, lease] of [
        [a, aLease],
        [b, leg.early?.lease ?? leg.late?.lease ?? null],
      ] as const) {
        if (lease) await holder.release(lease);
      }
      s.faults.lift(fault);
    }
    await storeClock?.setOffsetMs(0);

    const preconditions: Check[] = point
      ? [
          {
            name: `A's clock was stepped at ${boundaryLabel(point.boundary)}`,
            held: stepLanded === true,
            detail: stepLanded ? pointInWords(point) : stepMissed,
          },
        ]
      : [];
    preconditions.push(
      ...legs.flatMap((leg) => [
        {
          name: `${leg.variant}: the skew was in force`,
          held:
            Math.abs(leg.measuredStoreSkewMs - leg.storeOffsetMs) <= tolerance &&
            leg.appOffsetsAfterMs.every((o, i) => o === leg.appOffsetsMs[i]),
          detail:
            `A's clock ${signed(leg.appOffsetsMs[0])} ms and B's ${signed(leg.appOffsetsMs[1])} ms (they still reported ${leg.appOffsetsAfterMs.map(signed).join(' and ')} ms after B's last attempt); ` +
            `store clock measured ${signed(Math.round(leg.measuredStoreSkewMs))} ms off real time (asked ${signed(leg.storeOffsetMs)} ms, accepted ±${tolerance} ms)`,
        },
        {
          name: `${leg.variant}: A took the lease`,
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
                name: `${leg.variant}: B's early try was answered inside A's lease`,
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
    const acquireEvents = (leg: Leg): HistoryEvent[] =>
      s.history.filter(
        (e) => e.holder === 'B' && (e.kind === 'acquire-ok' || e.kind === 'acquire-denied') && e.t >= leg.aAt,
      );
    const describe = (leg: Leg) =>
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
        ? `${pointInWords(point)} (by ${signed(legs[0]?.appOffsetsMs[0] ?? 0)} ms; B's and the store's clocks real); A took a ${p.ttl} ms lease; B tried halfway through it and again ${p.margin} ms after it lapsed.`
        : `A took a ${p.ttl} ms lease with one clock ${p.skew} ms ahead (${legs.map((l) => `${l.variant}: ${FAULT_TEXT[l.variant]}`).join(', then ')}); B tried halfway through it and again ${p.margin} ms after it lapsed.`;
      if (held) return `${setting} ${legs.map(describe).join('; ')}: the lease is written and compared on one clock.`;
      return (
        `${setting} ${[...early, ...skipped].map(describe).join('; ')}. ` +
        `The lease's expiry was computed on one clock and compared on another, so the skew between them moved the expiry by ${p.skew} ms. ` +
        `Write and compare on the same clock: \`lease_until = now() + interval\` in SQL, or a store-side TTL (Redis PX).`
      );
    }
  },
});

/** Reads the store's wall clock minus the real one (ms), with the store's own clock query. */
async function storeSkewReader(s: Scenario): Promise<() => Promise<number>> {
  const view = s.view();
  const clockMs = view.clockMs?.bind(view);
  if (!clockMs) throw new UsageError(`V317 reads the store's clock, which a ${s.family.name} store does not offer`);
  return async () => {
    const before = Date.now();
    return (await clockMs()) - (before + Date.now()) / 2;
  };
}

function signed(ms: number): string {
  return `${ms > 0 ? '+' : ''}${ms}`;
}
