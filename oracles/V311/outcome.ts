/**
 * What became of the dead holder's lock, from V311's recorded race and watch (a pure function):
 * taken in time (by a try begun within TTL + grace of A's take), taken late (by a later try: in the
 * watch to the patience bound, or an explored contender's), or still held when the contenders stopped — at the patience bound, or short of it (a run
 * recorded before --patience stopped at TTL + grace). Both of V311's judges word their verdicts from it.
 */
import type { Check } from '../../src/core/judgement.ts';
import type { ParamValues } from '../../src/core/params.ts';
import type { LockState } from '../../src/oracle/scenario.ts';
import { asOne, type ContenderTry } from '../../scenarios/contenders.ts';
import type { V311Observations } from './observations.ts';
import { patienceMs, type v311Params } from './params.ts';

export const PATIENCE_WAITED = 'the contenders were denied to the patience bound';

/** Whether the contenders of a lock still held kept trying to the patience bound (a "never" needs it). */
export function patienceWaited(out: LockOutcome, o: V311Observations): Check {
  return {
    name: PATIENCE_WAITED,
    held: out.waitedToBound,
    detail: out.waitedToBound
      ? `still denied ${out.lifetimeMs.toFixed(0)} ms after A's take, past the ${out.patienceMs} ms patience bound`
      : `the contenders stopped ${out.lifetimeMs.toFixed(0)} ms after A's take, short of the ${out.patienceMs} ms patience bound${o.watch === undefined ? ' (a run recorded before --patience, stopped at TTL + grace)' : ''}: the lock may yet have freed later`,
  };
}

export interface LockOutcome {
  kind: 'in-time' | 'late' | 'held';
  /** The contender that took the lock (in time or late). */
  taker?: string;
  /** From A's take to the grant (taken) or to the contenders' stop (held), ms. */
  lifetimeMs: number;
  /** The contenders' tries, summed over the race and the watch. */
  attempts: number;
  /** When the contenders' last try began (harness ms). */
  lastAttemptAt: number;
  /** The patience bound, ms from A's take. */
  patienceMs: number;
  /** Held: whether the contenders kept trying to the patience bound. */
  waitedToBound: boolean;
  /** When the store's view first showed A's lock free during the watch (ms from A's take), and how. */
  storeFreed?: { afterMs: number; how: string };
  /** How many times the watch read the store's view (0 without a watch, or on a session lock). */
  storeReads: number;
  /** Every contender's tries, the race's then the watch's. */
  everyTry: ContenderTry[];
}

/** The outcome, once A held the lock and the contenders raced for it (else undefined). */
export function lockOutcome(o: V311Observations, p: ParamValues<typeof v311Params>): LockOutcome | undefined {
  const { b, heldSince } = o;
  if (!b || heldSince === null) return undefined;
  const patience = o.watch?.patienceMs ?? patienceMs(p);
  const race = o.contenders ?? [];
  if (b.granted) {
    // Taken in the race: in time if the try that took it began within TTL + grace (an explored
    // contender, held to try once the store's view shows the lease lapsed, may begin later: late).
    const taken = race.find((t) => t.granted);
    const began = taken ? Math.max(taken.lastAttemptAt, taken.leaseFrom ?? 0) : b.lastAttemptAt;
    return {
      kind: began <= heldSince + p.ttl + p.grace ? 'in-time' : 'late',
      taker: taken?.holder ?? 'B',
      lifetimeMs: b.endedAt - heldSince,
      attempts: b.attempts,
      lastAttemptAt: b.lastAttemptAt,
      patienceMs: patience,
      waitedToBound: false,
      storeReads: 0,
      everyTry: race,
    };
  }
  const watch = o.watch;
  const watched = watch && watch.tries.length ? asOne(watch.tries) : undefined;
  const last = watched ?? b;
  return {
    kind: watched?.granted ? 'late' : 'held',
    ...(watched?.granted ? { taker: watch!.tries.find((t) => t.granted)!.holder } : {}),
    lifetimeMs: last.endedAt - heldSince,
    attempts: b.attempts + (watched?.attempts ?? 0),
    lastAttemptAt: last.lastAttemptAt,
    patienceMs: patience,
    waitedToBound: watched !== undefined && !watched.granted && last.endedAt - heldSince >= patience,
    ...(watch?.freed ? { storeFreed: { afterMs: watch.freed.at - heldSince, how: watch.freed.how } } : {}),
    storeReads: watch?.reads ?? 0,
    everyTry: [...race, ...(watch?.tries ?? [])],
  };
}

/** The lock as read when the contenders stopped: at the patience bound, else at TTL + grace. */
export function endRead(o: V311Observations): LockState | null {
  return o.watch?.last ?? o.stuck;
}

/** "; the store's view: stat k.lock found nothing 2841 ms after A's take" when the watch saw the lock freed. */
export function storeFreedWords(out: LockOutcome): string {
  return out.storeFreed
    ? `; the store's view: ${out.storeFreed.how} ${out.storeFreed.afterMs.toFixed(0)} ms after A's take`
    : out.kind === 'late' && out.storeReads > 0
      ? `; the store's view (${out.storeReads} reads during the watch) did not show it free before the grant`
      : '';
}
