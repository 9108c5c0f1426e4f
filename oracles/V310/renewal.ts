/**
 * V310 on a file store explores A's renewal too: a file lock's renewal reads the owner record,
 * checks it, then writes by pathname, just as its release reads, compares and removes, so a
 * renewal held after its check writes over the successor's record (issue 24). A renews once,
 * between its acquire and its release, when the target has an extend; on a store with a wire (a
 * Redis renewal is one command or script) A's renewal is not part of the scenario.
 */
import type { Holder } from '../../src/holder/holder.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import type { Tracer } from '../../src/oracle/tracer.ts';

/** The trace's part and the points' part for A's renewal. */
export const RENEWAL = 'renewal';

/** Whether A renews between its acquire and its release in this run: where locks are files (the family hands holders a directory), when the target can. */
export async function renewsBeforeRelease(s: Scenario, a: Holder): Promise<boolean> {
  return s.family.holderDir !== undefined && (await a.ready).members.includes('extend');
}

/** A acquires (traced as "acquire"), renews when it does here (RENEWAL) and releases ("release"). */
export async function traceV310(s: Scenario, tracer: Tracer, ttlMs: number): Promise<void> {
  const a = await tracer.holder(s);
  const lease = await tracer.part('acquire', () => a.acquire());
  if (!lease) return;
  if (await renewsBeforeRelease(s, a)) await tracer.part(RENEWAL, () => a.extend(lease, ttlMs));
  await tracer.part('release', () => a.release(lease));
}
