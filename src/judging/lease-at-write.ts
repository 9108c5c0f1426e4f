/**
 * Was B's lease live when one of A's writes arrived? The harness owns the resource: before it
 * accepts such a write it reads B's lock in the store (scenarios/lease-at-writes.ts), and this
 * judges each write by its own reading, never by a reading taken earlier and extrapolated. Pure:
 * a function of the readings play recorded.
 */
import type { AppClockExpiry } from '../families/family.ts';
import type { EffectRecord } from '../core/resource.ts';
import { sameLock } from './ownership.ts';

/** B's lock as the harness read it, with when (harness ms) the read was sent and answered. */
export type LeaseReading =
  /** Where the store shows the lock itself: a Redis key or hash field, a Postgres lease row, a file lock. */
  | {
      kind: 'store';
      where: string;
      sentAt: number;
      receivedAt: number;
      exists: boolean;
      value: string | null;
      /** ms left by the store's clock (or by the app's expiry field: `expiry`); -1: no expiry at all. */
      pttlMs: number;
      expiry?: AppClockExpiry;
      /** The app's record was there but said free (a blank owner or expiry), in words. */
      free?: string;
      /** A file lock's inode: a lock made again at the path is another's, whatever it holds. */
      ino?: number;
    }
  /** Where the lock is a session lock (Postgres advisory): B's sessions holding one, granted, in pg_locks. */
  | {
      kind: 'session';
      sentAt: number;
      receivedAt: number;
      bSessions: number[];
      /** Why the lock's own location cannot be read (a lease in a table the target did not declare, say). */
      locationUnread: string;
    }
  /** The harness cannot read where this lock lives (why), or the read failed (error). */
  | { kind: 'unreadable'; why: string }
  | { kind: 'error'; error: string };

/** A reading taken just before the write that arrived as resource #seq was accepted. */
export interface ReadingAtWrite {
  seq: number;
  reading: LeaseReading;
}

/** Whose writes are judged (the stale holder, A by default) and whose lease they are judged by (the taker, B). */
export interface PairNames {
  stale: string;
  taker: string;
}

const A_AND_B: PairNames = { stale: 'A', taker: 'B' };

/** One of A's writes, and whether B's lease was live as it was accepted (why, in words). */
export interface WriteInLease {
  write: EffectRecord;
  live: boolean;
  why: string;
}

/** Each write judged by the reading taken before it was accepted, B's lock at its first write naming B's token or session. */
export function leaseAtWrites(
  writes: readonly EffectRecord[],
  readings: readonly ReadingAtWrite[],
  atFirstWrite: LeaseReading,
  names: PairNames = A_AND_B,
): WriteInLease[] {
  const { taker } = names;
  return writes.map((write) => {
    const reading = readings.find((r) => r.seq === write.seq)?.reading;
    if (!reading)
      return {
        write,
        live: false,
        why: `${taker}'s lock was not read before write #${write.seq} was accepted${unreadWhere(atFirstWrite)}`,
      };
    return { write, ...liveAt(write, reading, atFirstWrite, names) };
  });
}

/** Why B's lock cannot be read where it lives, when its first reading said so ('' when it could). */
function unreadWhere(first: LeaseReading): string {
  const why = first.kind === 'unreadable' ? first.why : first.kind === 'session' ? first.locationUnread : undefined;
  return why === undefined ? '' : `, and it cannot be read where it lives: ${why}`;
}

function liveAt(
  write: EffectRecord,
  r: LeaseReading,
  first: LeaseReading,
  { stale: A, taker: B }: PairNames,
): { live: boolean; why: string } {
  const at = `before ${A}'s write #${write.seq} was accepted (${write.t.toFixed(1)} ms)`;
  if (r.kind === 'unreadable') return { live: false, why: `${B}'s lock cannot be read in the store: ${r.why}` };
  if (r.kind === 'error') return { live: false, why: `reading ${B}'s lock ${at} failed: ${r.error}` };
  if (r.kind === 'session') {
    const bSessions = first.kind === 'session' ? first.bSessions : [];
    if (bSessions.length === 0)
      return {
        live: false,
        why: `pg_locks showed no session lock of ${B}'s at its first write, and the lock cannot be read where it lives: ${r.locationUnread}`,
      };
    const kept = r.bSessions.find((session) => bSessions.includes(session));
    return kept !== undefined
      ? {
          live: true,
          why: `pg_locks showed ${B}'s session ${kept} holding its advisory lock ${at}, as at ${B}'s first write (a session lock has no expiry: it ends only when ${B} unlocks it or ${B}'s session ends)`,
        }
      : {
          live: false,
          why: `pg_locks showed ${B}'s session(s) [${r.bSessions.join(', ')}] ${at}, not ${B}'s session(s) of its first write [${bSessions.join(', ')}]: ${B}'s lock was gone`,
        };
  }
  if (!r.exists) return { live: false, why: `${r.where} ${at}: ${gone(r, B)}` };
  if (first.kind === 'store' && first.exists && first.value !== null && r.value !== first.value)
    return {
      live: false,
      why: `${r.where} gave ${JSON.stringify(r.value)} ${at}, not ${B}'s ${JSON.stringify(first.value)} of its first write: ${B}'s lease was gone and someone else held the lock`,
    };
  if (first.kind === 'store' && first.exists && !sameLock(first, r))
    return {
      live: false,
      why: `${r.where} showed inode ${r.ino} ${at}, not inode ${first.ino} of ${B}'s lock at its first write: ${B}'s lock was removed and the path made again, by ${B} or another`,
    };
  if (r.pttlMs < 0)
    return {
      live: true,
      why: `${r.where} held ${B}'s lock ${at}, read ${(write.t - r.receivedAt).toFixed(1)} ms before; it has no expiry in the store (PTTL -1) and the target declares none (storeKey's expiresField), so it ends only by a command: judged live as read. If the app keeps its lease's end in a field, declare it`,
    };
  const until = r.sentAt + r.pttlMs;
  const by = r.expiry?.atMs != null ? byAppClock(r.expiry, r.pttlMs) : `its PTTL ${r.pttlMs} ms by the store's clock`;
  return until >= write.t
    ? {
        live: true,
        why: `${r.where} held ${B}'s lock ${at}: ${by}, read at ${r.sentAt.toFixed(1)} ms, so live until ${until.toFixed(1)} ms`,
      }
    : {
        live: false,
        why: `${r.where} held ${B}'s lock ${at}, but with ${by} read at ${r.sentAt.toFixed(1)} ms it ran out at ${until.toFixed(1)} ms, before the write was accepted`,
      };
}

/** A lock the reading found gone: lapsed by the app's expiry field, or not there. */
function gone(r: Extract<LeaseReading, { kind: 'store' }>, B: string): string {
  const e = r.expiry;
  if (e?.atMs != null)
    return `${B}'s claim had lapsed by its ${e.field} field ${JSON.stringify(e.raw)} (${iso(e.atMs)}, on the app's clock), at or before the harness's own clock ${iso(e.comparedWithMs)}: ${B}'s lease was gone`;
  return `${r.free ?? 'found nothing'}: ${B}'s lease was gone`;
}

function byAppClock(e: AppClockExpiry, leftMs: number): string {
  const instant = e.raw === iso(e.atMs!) ? JSON.stringify(e.raw) : `${JSON.stringify(e.raw)} (${iso(e.atMs!)})`;
  return `its ${e.field} field ${instant}, on the app's clock, was ${leftMs} ms ahead of the harness's own (unskewed) clock ${iso(e.comparedWithMs)}`;
}

function iso(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

/** One line on the writes judged: how many came inside B's lease, and the first reason either way. */
export function leaseAtWritesInWords(
  judged: readonly WriteInLease[],
  { stale: A, taker: B }: PairNames = A_AND_B,
): string {
  const inside = judged.filter((w) => w.live);
  if (inside.length)
    return `${inside.length} of ${A}'s ${judged.length} accepted write(s) after ${B}'s first came while ${B}'s lease was live, each read in the store before it was accepted (${inside[0]!.why})`;
  return `none of ${A}'s ${judged.length} accepted write(s) after ${B}'s first came while ${B}'s lease was live, each read in the store before it was accepted (${judged[0]?.why ?? 'no write'}): ${A} may have written on a lock it re-took once ${B}'s was gone`;
}
