/**
 * B's lock read where it matters: at B's first write, and again the instant each of A's later
 * writes arrives at the resource, before the harness accepts it (Holder.readBeforeEffects). Each
 * reading goes into the history (labelled with the write it preceded) and into the observations;
 * src/judging/lease-at-write.ts judges each write by its own reading.
 */
import type { Holder } from '../src/holder/holder.ts';
import type { ReadingBeforeWrite } from '../src/judging/leaders-at-once.ts';
import type { LeaseReading, ReadingAtWrite } from '../src/judging/lease-at-write.ts';
import type { Scenario } from '../src/oracle/scenario.ts';

/** Read `holder`'s lock now: where the store shows it, else its session locks, else why it cannot be read. */
export async function readLease(s: Scenario, holder: string, label: string): Promise<LeaseReading> {
  try {
    const why = s.lockUnreadable;
    if (why === undefined) {
      const { where, exists, value, pttlMs, expiry, free, ino, sentAt, receivedAt } = await s.observeLock(label);
      return {
        kind: 'store',
        where,
        sentAt,
        receivedAt,
        exists,
        value,
        pttlMs,
        ...(expiry ? { expiry } : {}),
        ...(free ? { free } : {}),
        ...(typeof ino === 'number' ? { ino } : {}),
      };
    }
    if (!s.view().sessionLocks) return { kind: 'unreadable', why };
    const sentAt = s.now();
    const locks = await s.observeSessionLocks(label);
    const bSessions = locks.filter((l) => l.granted && l.holder === holder).map((l) => l.session);
    return { kind: 'session', sentAt, receivedAt: s.now(), bSessions, locationUnread: why };
  } catch (error) {
    return { kind: 'error', error: error instanceof Error ? error.message : String(error) };
  }
}

/** From now on, `holder`'s lock is read before each of `writer`'s writes is accepted; the list fills as they come. */
export function readLeaseAtWrites(s: Scenario, writer: Holder, holder: string): ReadingAtWrite[] {
  return writer.readBeforeEffects((name) =>
    readLease(s, holder, `${holder}'s lock as ${writer.id}'s write "${name}" arrived, before it was accepted`),
  );
}

/**
 * From now on, the lock is read before each write of every one of `writers` is accepted (--contenders
 * 3 or more: any two of them may be the pair judged); `taken()` gives every reading so far, in the
 * resource's order. Only a lock the store shows is read this way: a session lock, whose reading
 * names one holder's sessions, is recorded as unreadable, saying so.
 */
export function readLockBeforeEveryWrite(s: Scenario, writers: readonly Holder[]): { taken(): ReadingBeforeWrite[] } {
  const byWriter = writers.map((writer) => ({
    writer: writer.id,
    readings: writer.readBeforeEffects(async (name): Promise<LeaseReading> => {
      const why = s.lockUnreadable;
      if (why !== undefined)
        return {
          kind: 'unreadable',
          why: `${why}; with --contenders 3 or more only a lock the store shows (a key, a hash field, a declared lease row) is read at each write`,
        };
      return readLease(s, writer.id, `the lock as ${writer.id}'s write "${name}" arrived, before it was accepted`);
    }),
  }));
  return {
    taken: () =>
      byWriter
        .flatMap(({ writer, readings }) => readings.map(({ seq, reading }) => ({ writer, seq, reading })))
        .sort((x, y) => x.seq - y.seq),
  };
}
