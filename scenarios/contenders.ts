/**
 * Three or more contenders (`--contenders N`): the holders that race for a lock once its holder A
 * is gone (its lease lapsed, or it was killed). N counts A, so N = 2 is the one contender B every
 * oracle had; N ≥ 3 adds C, D, … as separate holder processes. They retry together; the race
 * records every contender, and `heldAtOnce` (pure: judges use it) finds every pair of them that
 * held the lock at the same time.
 */
import type { Holder } from '../src/holder/holder.ts';
import { acquireWithin } from './retry-acquire.ts';

/** The parameter an oracle adds to offer the option. */
export const contendersParam = {
  kind: 'count',
  default: 2,
  min: 2,
  max: 8,
  doc: 'holders in the run, A included: 2 is A and B; 3 or more add C, D, … as contenders that retry together once A is gone',
} as const;

const NAMES = 'BCDEFGH';

/** The contenders' holder names for `--contenders n`: ['B'] for 2, ['B', 'C'] for 3, … */
export function contenderIds(n: number): string[] {
  if (!Number.isInteger(n) || n < 2 || n > NAMES.length + 1)
    throw new Error(`--contenders must be a whole number from 2 to ${NAMES.length + 1}, got ${n}`);
  return [...NAMES.slice(0, n - 1)];
}

/** One contender's part in a race, in harness ms. */
export interface ContenderTry {
  holder: string;
  granted: boolean;
  attempts: number;
  /** When its last attempt began (a lease it was granted began no earlier). */
  lastAttemptAt: number;
  /**
   * The earliest its lease can have begun, when known to be later than its last attempt's start
   * (an attempt held before the command that takes the lock: not before it was let go).
   */
  leaseFrom?: number;
  /** When it was granted the lock, or gave up. */
  endedAt: number;
}

/**
 * Every contender retries every `everyMs` until it is granted the lock or `budgetMs` has passed;
 * once one is granted, the others end with the attempt they are in (a second grant is then one
 * whose attempt overlapped the first's). `started` (optional) gives a contender already trying
 * (an explored point holds it mid-attempt), whose one attempt is awaited as it is.
 */
export async function raceTogether(
  contenders: readonly Holder[],
  now: () => number,
  budgetMs: number,
  everyMs: number,
  started: ReadonlyMap<string, Promise<ContenderTry>> = new Map(),
): Promise<ContenderTry[]> {
  let someoneGranted = false;
  return Promise.all(
    contenders.map(async (holder) => {
      const ongoing = started.get(holder.id);
      const result = ongoing
        ? await ongoing
        : await acquireWithin(holder, now, budgetMs, everyMs, { stopEarly: () => someoneGranted }).then((got) => ({
            holder: holder.id,
            granted: got.lease !== null,
            attempts: got.attempts,
            lastAttemptAt: got.lastAttemptAt ?? now(),
            endedAt: got.grantedAt ?? now(),
          }));
      if (result.granted) someoneGranted = true;
      return result;
    }),
  );
}

/** One try of `holder`'s acquire, as a race records it. */
export async function tryOnce(holder: Holder, now: () => number): Promise<ContenderTry> {
  const began = now();
  const lease = await holder.acquire();
  return { holder: holder.id, granted: lease !== null, attempts: 1, lastAttemptAt: began, endedAt: now() };
}

/** The race as one contender: granted if any was, its attempts summed, its last try the latest, its end the first grant. */
export function asOne(tries: readonly ContenderTry[]): Omit<ContenderTry, 'holder'> {
  const granted = tries.filter((t) => t.granted);
  return {
    granted: granted.length > 0,
    attempts: tries.reduce((sum, t) => sum + t.attempts, 0),
    lastAttemptAt: Math.max(...tries.map((t) => t.lastAttemptAt)),
    endedAt: granted.length ? Math.min(...granted.map((t) => t.endedAt)) : Math.max(...tries.map((t) => t.endedAt)),
  };
}

/**
 * Every pair of contenders that surely held the lock at once, none having released it. A granted
 * contender's lease was set during its last attempt, so it surely lived from the grant until that
 * attempt's start (or its `leaseFrom`) + `ttlMs` (a lease renewed by its holder lives longer: this bound is the least
 * it lived); two such spans that overlap are two holders at once. A pair whose spans do not
 * overlap (an attempt held past its lease) proves nothing either way: `grantedApart` lists it.
 */
export function heldAtOnce(tries: readonly ContenderTry[], ttlMs: number): Array<[ContenderTry, ContenderTry]> {
  return pairsOfGranted(tries).filter(([x, y]) => overlap(x, y, ttlMs));
}

/** The pairs of granted contenders whose leases cannot be shown to have lived at once. */
export function grantedApart(tries: readonly ContenderTry[], ttlMs: number): Array<[ContenderTry, ContenderTry]> {
  return pairsOfGranted(tries).filter(([x, y]) => !overlap(x, y, ttlMs));
}

function pairsOfGranted(tries: readonly ContenderTry[]): Array<[ContenderTry, ContenderTry]> {
  const granted = tries.filter((t) => t.granted).sort((x, y) => x.endedAt - y.endedAt);
  return granted.flatMap((earlier, i) =>
    granted.slice(i + 1).map((later) => [earlier, later] as [ContenderTry, ContenderTry]),
  );
}

function overlap(x: ContenderTry, y: ContenderTry, ttlMs: number): boolean {
  const from = (t: ContenderTry) => Math.max(t.lastAttemptAt, t.leaseFrom ?? 0);
  return Math.max(x.endedAt, y.endedAt) < Math.min(from(x), from(y)) + ttlMs;
}
