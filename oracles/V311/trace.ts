/**
 * V311's trace for --explore: A's acquire, traced alone ("acquire"); with --contenders 3 or more,
 * then A killed holding the lock and, once its lease has lapsed (A's take + TTL, and the store's
 * own PTTL or stale time if it shows one; a lock that shows none, until B's try takes it), B's
 * takeover of the dead holder's lock ("takeover"), whose boundaries become the points that hold B
 * there while C acts.
 */
import type { ParamValues } from '../../src/core/params.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import type { Tracer } from '../../src/oracle/tracer.ts';
import { patienceMs, type v311Params } from './params.ts';

export const TAKEOVER = 'takeover';

export async function traceV311(s: Scenario, tracer: Tracer, p: ParamValues<typeof v311Params>): Promise<void> {
  const a = await tracer.holder(s);
  const lease = await tracer.part('acquire', () => a.acquire());
  if (!lease) return;
  if (p.contenders < 3) {
    await a.release(lease);
    return;
  }
  const b = await tracer.holder(s, 'B');
  const heldSince = s.now();
  await a.kill();
  await s.sleep(Math.max(0, heldSince + p.ttl - s.now()));
  const left = await s.readLock();
  if (left.exists && left.pttlMs > 0) await s.sleep(left.pttlMs + 1);
  // A lock whose lapse the store's view cannot show (PTTL -1: no expiry, no stale time declared)
  // may free later than its TTL: B tries until it takes it or the patience bound, and only the try
  // that took it is the takeover traced (a denied try's calls are dropped from the part).
  const lapseUnseen = left.exists && left.pttlMs === -1;
  const until = heldSince + patienceMs(p);
  for (;;) {
    const from = tracer.boundaries.length;
    const lease = await tracer.part(TAKEOVER, () => b.acquire());
    if (lease || !lapseUnseen || s.now() >= until) return;
    tracer.boundaries.splice(from);
    await s.sleep(Math.max(5, Math.round(p.ttl / 10)));
  }
}
