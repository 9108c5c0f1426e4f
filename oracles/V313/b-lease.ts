/**
 * V313 --contender hold: until when B's lock surely lived, by the store's own clock, while B sat
 * held at its first write. A's writes after B's first are judged only up to then: on a loaded
 * machine B's lease can lapse (no renewal, or one that came late) and A re-take a free lock.
 * - Redis/Valkey: the key's PTTL, read while B sits at its first write.
 * - Postgres, a lease row the target declares with storeKey(env): `expiresColumn - now()`, read then.
 * - Postgres, no declared row: B's session advisory (or transaction) lock, granted to the same B
 *   session in pg_locks at B's first write and again after A's job ended (B still held at its
 *   write, so it could not have let go and re-taken it in between). Anything else (a lease in a
 *   table the harness was not told about) cannot be read: the window is unknown.
 */
import type { Scenario } from '../../src/oracle/scenario.ts';
import { speaksRedis } from '../../src/stores/types.ts';
import { isLeaseRow } from '../../src/stores/store-location.ts';
import { describeLocks, observeAdvisoryLocks, observeLeaseRow } from '../../scenarios/pg-observe.ts';
import { holderApplication } from '../../scenarios/pg-probe.ts';

/** B's lock lived until `until` (harness ms) by `how`; or nothing shows it lived, `why`. */
export type BLease = { until: number; how: string } | { until?: undefined; why: string };

const AT_FIRST_WRITE = 'B in its critical section (held at its first write)';

/**
 * Read B's lock now (B held at its first write); the returned function finishes the reading once
 * A's job has ended, B still held (a second read on Postgres without a declared lease row).
 */
export async function readBLease(s: Scenario): Promise<() => Promise<BLease>> {
  if (speaksRedis(s.store.kind)) {
    const seen = await s.observeKey(AT_FIRST_WRITE);
    return async () => ({ until: seen.liveUntil, how: "by the store's PTTL" });
  }
  const row = s.lockLocation;
  if (isLeaseRow(row)) {
    const seen = await observeLeaseRow(s, AT_FIRST_WRITE, row);
    return async () => ({ until: seen.liveUntil, how: `by the declared lease row's ${row.expiresColumn} - now()` });
  }
  const bSessions = async (label: string) =>
    (await observeAdvisoryLocks(s, label)).filter((l) => l.granted && l.application === holderApplication('B'));
  const atFirst = await bSessions(AT_FIRST_WRITE);
  return async () => {
    const readAt = s.now();
    const after = await bSessions("A's job ended, B still held at its first write");
    const kept = after.find((l) => atFirst.some((f) => f.pid === l.pid));
    if (kept)
      return {
        until: readAt,
        how: `by pg_locks: B's session ${kept.pid} held its advisory lock at B's first write and still after A's job ended`,
      };
    return {
      why:
        `B's lock cannot be shown live at A's writes: pg_locks showed B holding ${describeLocks(atFirst)} at B's first write and ${describeLocks(after)} after A's job ended, ` +
        `and the harness reads a lease in a table only where the target declares it. B's lease may have lapsed (its renewals late on a loaded machine) and A re-taken a free lock. ` +
        `A lease row: declare it, storeKey: (env) => ({ table, keyColumn, key: env.key, expiresColumn })`,
    };
  };
}
