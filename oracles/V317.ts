/**
 * V317 — an expiry written on one clock and compared on another.
 *
 * Scenario, run twice: (app-ahead) the holders' wall clocks run --skew ms ahead of the database's
 * (fake `Date` in each holder; real database clock); (store-ahead) the database's wall clock runs
 * --skew ms ahead of the holders' (the store's clock offset). Each time A takes a --ttl ms lease,
 * B tries halfway through it, and again --margin ms after it should have lapsed.
 * Property: no early takeover (B denied while A's lease is live: no overlap) and no skipped event
 * (B takes over once the lease has lapsed), timed on the harness's monotonic clock.
 * Preconditions: the skew was in force when the lease was written and compared (the holders'
 * offsets from their clock replies; the database's measured with now() against the real clock);
 * A took the lease.
 */
import pg from 'pg';
import { defineOracle, type Check, nothingProven } from '../src/oracle.ts';
import type { HistoryEvent } from '../src/history.ts';
import type { LeaseSummary } from '../scenarios/holder-protocol.ts';

type Variant = 'app-ahead' | 'store-ahead';

interface Leg {
  variant: Variant;
  appOffsetMs: number;
  storeOffsetMs: number;
  measuredStoreSkewMs: number;
  /** The holders' offsets as they reported them after B's last attempt. */
  appOffsetsAfterMs: number[];
  aLease: LeaseSummary | null;
  aAt: number;
  early: { at: number; lease: LeaseSummary | null } | undefined;
  late: { at: number; lease: LeaseSummary | null } | undefined;
}

export default defineOracle({
  id: 'V317',
  title: 'Expiry written on one clock, compared on another',
  class: 'CK-2 expiry written on one clock and compared on another',
  scenario:
    'A takes a lease; B tries halfway through it and again just after it lapses. Run with the app clocks ahead of the database\'s, then with the database\'s clock ahead.',
  property: 'No early takeover (no overlap) and no skipped takeover, whichever clock is ahead.',
  stores: ['postgres'],
  holders: ['A', 'B'],
  params: {
    ttl: { kind: 'ms', default: 1000, min: 100, doc: 'the lease TTL the target is asked to use (env.ttlMs)' },
    skew: { kind: 'ms', default: 5000, min: 1, doc: 'how far one side\'s clock runs ahead of the other' },
    margin: { kind: 'ms', default: 300, min: 1, doc: 'how long after the lease lapses B tries again' },
    variant: { kind: 'choice', default: 'both', choices: ['both', 'app-ahead', 'store-ahead'], doc: 'which side\'s clock runs ahead' },
  },
  needs: () => ['acquire', 'release'],
  // B tries at ttl/2 and at ttl + margin: a skew smaller than either cannot move a takeover
  // across one of those tries, so such a run could not tell a bad target from a good one.
  validate: (p) =>
    p.skew > p.ttl / 2 && p.skew > p.margin
      ? []
      : [`--skew (${p.skew}) must exceed half of --ttl (${p.ttl / 2}) and --margin (${p.margin}): B's tries at ttl/2 and ttl + margin could not see a smaller skew`],
  storeRequest: (_p, kind) => ({ kind, clockOffsetMs: 0 }),
  references: [
    { target: 'targets/clock/lease-app-clock-expiry.ts', expect: 'FAIL' },
    { target: 'targets/clock/lease-app-clock-expiry.ts', expect: 'FAIL', params: { variant: 'app-ahead' } },
    { target: 'targets/clock/lease-app-clock-expiry.ts', expect: 'FAIL', params: { variant: 'store-ahead' } },
    { target: 'targets/clock/lease-db-clock-expiry.ts', expect: 'PASS' },
  ],

  async play(s, p) {
    const storeClock = s.store.capabilities.clock;
    if (!storeClock) throw new Error(`the ${s.store.kind} store was started without a clock; V317 needs to skew it`);
    const db = new pg.Client({ connectionString: s.store.url });
    await db.connect();
    s.onClose(() => db.end());
    const storeSkew = async () => {
      const before = Date.now();
      const { rows } = await db.query<{ ms: string }>('select (extract(epoch from clock_timestamp()) * 1000)::bigint as ms');
      return Number(rows[0]!.ms) - (before + Date.now()) / 2;
    };
    const [a, b] = await Promise.all([s.holder('A'), s.holder('B')]);
    const variants: Variant[] = p.variant === 'both' ? ['app-ahead', 'store-ahead'] : [p.variant as Variant];
    const tolerance = Math.min(500, p.skew / 2);
    const legs: Leg[] = [];

    for (const variant of variants) {
      const appOffsetMs = variant === 'app-ahead' ? p.skew : 0;
      const storeOffsetMs = variant === 'store-ahead' ? p.skew : 0;
      const fault = s.faults.apply(variant === 'app-ahead' ? 'clock' : 'store', undefined, variant === 'app-ahead' ? `holders' wall clocks +${p.skew} ms` : `database wall clock +${p.skew} ms`, {
        appOffsetMs,
        storeOffsetMs,
      });
      await Promise.all([a, b].map((h) => h.clock({ op: legs.length ? 'set-offset' : 'install-wall', offsetMs: appOffsetMs })));
      await storeClock.setOffsetMs(storeOffsetMs);
      const measuredStoreSkewMs = await storeSkew();
      s.history.add('store-observed', undefined, { label: `${variant}: database clock minus real clock`, skewMs: Math.round(measuredStoreSkewMs) });
      s.progress(`${variant}: A takes a ${p.ttl} ms lease`);

      const aLease = await a.acquire();
      const aAt = s.now();
      const leg: Leg = { variant, appOffsetMs, storeOffsetMs, measuredStoreSkewMs, appOffsetsAfterMs: [], aLease, aAt, early: undefined, late: undefined };
      legs.push(leg);
      if (aLease) {
        await s.sleep(Math.max(0, aAt + p.ttl / 2 - s.now()));
        leg.early = { at: s.now(), lease: await b.acquire() };
        if (!leg.early.lease) {
          await s.sleep(Math.max(0, aAt + p.ttl + p.margin - s.now()));
          leg.late = { at: s.now(), lease: await b.acquire() };
        }
      }
      leg.appOffsetsAfterMs = (await Promise.all([a, b].map((h) => h.clock({ op: 'read' })))).map((r) => Math.round(r.offsetMs));
      for (const [holder, lease] of [[a, aLease], [b, leg.early?.lease ?? leg.late?.lease ?? null]] as const) {
        if (lease) await holder.release(lease);
      }
      s.faults.lift(fault);
    }
    await storeClock.setOffsetMs(0);

    const preconditions: Check[] = legs.flatMap((leg) => [
      {
        name: `${leg.variant}: the skew was in force`,
        held: Math.abs(leg.measuredStoreSkewMs - leg.storeOffsetMs) <= tolerance && leg.appOffsetsAfterMs.every((o) => o === leg.appOffsetMs),
        detail:
          `holders' clocks ${signed(leg.appOffsetMs)} ms (A and B still reported ${leg.appOffsetsAfterMs.map(signed).join(' and ')} ms after B's last attempt); ` +
          `database clock measured ${signed(Math.round(leg.measuredStoreSkewMs))} ms off real time (asked ${signed(leg.storeOffsetMs)} ms, accepted ±${tolerance} ms)`,
      },
      {
        name: `${leg.variant}: A took the lease`,
        held: leg.aLease !== null,
        detail: leg.aLease ? `A took the ${p.ttl} ms lease at ${leg.aAt} ms` : 'A was denied the lease, so nothing was tested',
      },
    ]);
    const early = legs.filter((l) => l.early?.lease);
    const skipped = legs.filter((l) => l.aLease && !l.early?.lease && !l.late?.lease);
    const held = early.length === 0 && skipped.length === 0;
    const acquireEvents = (leg: Leg): HistoryEvent[] =>
      s.history.filter((e) => e.holder === 'B' && (e.kind === 'acquire-ok' || e.kind === 'acquire-denied') && e.t >= leg.aAt);
    const describe = (leg: Leg) =>
      !leg.aLease
        ? `${leg.variant}: A was denied the lease, so B was not tried`
        : leg.early?.lease
          ? `${leg.variant}: B took over ${(leg.early.at - leg.aAt).toFixed(0)} ms into A's ${p.ttl} ms lease (early takeover; overlap ${(leg.aAt + p.ttl - leg.early.at).toFixed(0)} ms)`
          : leg.late?.lease
            ? `${leg.variant}: B was denied halfway and took over ${(leg.late.at - leg.aAt).toFixed(0)} ms after A (on time)`
            : `${leg.variant}: B was still denied ${leg.late ? (leg.late.at - leg.aAt).toFixed(0) : '?'} ms after A took a ${p.ttl} ms lease (skipped takeover)`;
    const counts: Record<string, number> = { ttlMs: p.ttl, skewMs: p.skew, earlyTakeovers: early.length, skippedTakeovers: skipped.length };
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
      const setting = `A took a ${p.ttl} ms lease with one side's clock ${p.skew} ms ahead (${legs.map((l) => l.variant).join(', then ')}); B tried halfway through it and again ${p.margin} ms after it lapsed.`;
      if (held) return `${setting} ${legs.map(describe).join('; ')}: the lease is written and compared on one clock.`;
      return (
        `${setting} ${[...early, ...skipped].map(describe).join('; ')}. ` +
        `The lease's expiry was computed on one clock and compared on another, so the skew between them moved the expiry by ${p.skew} ms. ` +
        `Write and compare on the same clock: \`lease_until = now() + interval\` in SQL, or a store-side TTL (Redis PX).`
      );
    }
  },
});

function signed(ms: number): string {
  return `${ms > 0 ? '+' : ''}${ms}`;
}
