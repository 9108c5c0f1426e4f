/**
 * V317's scenario, leg by leg: set each clock's offset (the holders' fake `Date`, the store's clock),
 * measure the store's against the real one, A takes a --ttl ms lease, B tries halfway through it
 * and, denied, again --margin ms after it should have lapsed. On a file store B also looks at once
 * (a try right after A acquired), and its late try comes --margin after a lease counted from then. An explored point is one leg with A's
 * clock stepped at its boundary. Records what happened; judges nothing.
 */
import { UsageError } from '../../src/core/errors.ts';
import type { ParamValues } from '../../src/core/params.ts';
import { armClockStep } from '../../src/oracle/arm-point.ts';
import { pointInWords } from '../../src/oracle/explore-point.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import { expiryClockOf } from '../../src/oracle/expiry-clock.ts';
import { FAULT_TEXT, legsFor, NODE_VARIANTS, offsetsFor, signed, type Variant } from './legs.ts';
import type { LegObservation, V317Observations } from './observations.ts';
import type { v317Params } from './params.ts';
import { playV317OnCluster } from './cluster-play.ts';

export async function playV317(s: Scenario, p: ParamValues<typeof v317Params>): Promise<V317Observations> {
  // Where the store compares a lease's expiry picks the clocks: on the target's own nodes (a
  // cluster) the nodes' clocks are skewed, by ./cluster-play.ts; elsewhere a holder's or the store's.
  const expiryClock = expiryClockOf(s.store.kind);
  const onNodes = expiryClock === 'nodes';
  if (p.variant !== 'auto' && onNodes !== NODE_VARIANTS.includes(p.variant))
    throw new UsageError(
      onNodes
        ? `--variant ${p.variant} skews a holder's or the store's clock; on a cluster the nodes' clocks are skewed: --variant home-ahead or home-behind`
        : `--variant ${p.variant} skews a cluster node's clocks: it runs with --store cluster only`,
    );
  if ((!onNodes || !s.point) && p.steppedNode !== 'home')
    throw new UsageError(
      `--stepped-node ${p.steppedNode} picks the node an explored point steps (--store cluster --explore sets it per point); a plain cluster run skews the home: --variant home-ahead or home-behind`,
    );
  if (onNodes) return playV317OnCluster(s, p);
  // An explored point (--explore) is one leg: A's clock stepped at its boundary, nobody else's skewed.
  const point = s.point;
  const wireA = point ? await s.wire('A') : undefined;
  const variants: Variant[] = point
    ? [point.fault === 'clock-back' ? 'a-back' : 'a-ahead']
    : legsFor(p.variant, expiryClock);
  const storeClock = s.store.capabilities.clock;
  if (variants.includes('store-ahead') && !storeClock)
    throw new Error(`the ${s.store.kind} store was started without a clock; V317's store-ahead leg needs to skew it`);
  const storeSkew = await storeSkewReader(s);
  const [a, b] = await Promise.all([s.holder('A', wireA ? { url: wireA.url } : {}), s.holder('B')]);
  let stepLanded: boolean | undefined;
  let stepMissed = `A's clock was never stepped: A's acquire did not run`;
  const legs: LegObservation[] = [];

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
    const leg: LegObservation = {
      variant,
      appOffsetsMs,
      storeOffsetMs,
      measuredStoreSkewMs,
      appOffsetsAfterMs: [],
      aLease,
      aStartedAt,
      aAt,
      early: null,
      late: null,
    };
    legs.push(leg);
    if (aLease) {
      // A lock the store keeps no expiry for (a lock file) its contender may age on its own clock from
      // when it first saw it: B looks at once, and its late try comes --margin after a lease counted from that look too.
      const looks = expiryClock === 'contender';
      const look = looks ? await bTries() : undefined;
      if (look?.lease) leg.early = look;
      else {
        if (look) leg.look = look;
        await s.sleep(Math.max(0, aAt + p.ttl / 2 - s.now()));
        leg.early = await bTries();
        if (!leg.early.lease) {
          await s.sleep(Math.max(0, Math.max(aAt, look?.answeredAt ?? 0) + p.ttl + p.margin - s.now()));
          leg.late = { at: s.now(), lease: await b.acquire() };
        }
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
  /** One try of B's: when it was sent and answered, and the lease it got. */
  async function bTries() {
    const at = s.now();
    const lease = await b.acquire();
    return { at, answeredAt: s.now(), lease };
  }

  return {
    point: point ? { inWords: pointInWords(point), stepLanded: stepLanded === true, stepMissed } : null,
    legs,
  };
}

/** Reads the store's wall clock minus the real one (ms), with the store's own clock query. */
async function storeSkewReader(s: Scenario): Promise<() => Promise<number>> {
  const view = s.view();
  const clockMs = view.clockMs?.bind(view);
  if (!clockMs) throw new UsageError(`V317 reads the store's clock, which a ${s.family.name} store does not offer`);
  // A clock read gives the store's clock as of when it resolves (a quick query's is its server's
  // instant, a round trip's half earlier; a slow read's, like etcd's Date-header edge, carried on).
  return async () => (await clockMs()) - Date.now();
}
