/**
 * Whose is the lock the store shows now: a pure judgement of one reading of the lock and the trace
 * of the holders' own calls, shared by every oracle that compares the lock's value with a holder's.
 *
 * A token a holder declared (its lease's `token`) that equals the value read wins ("declared").
 * Otherwise the owner is observed from what the holders did, as the harness traced it:
 * - a file store: the holder whose own call (mkdir, an open with a writing flag, writeFile, a rename
 *   or link onto the path) left the inode the read found, the latest such call seen before the read
 *   (a writeFile over another's file keeps its inode: the last writer owns its content; a rename or
 *   link counts only where no call made or wrote that inode at the path);
 * - Redis and Valkey: the holder whose acquire (SET … NX, SETNX, HSETNX, seen at its wire proxy)
 *   wrote the value read, or who handed it to a script naming the lock (EVAL … ARGV), when no other
 *   holder did the same with that value.
 * A flock lock (a kernel lock on the file) is the holder's whose pid /proc/locks names, before all else.
 * Neither: the owner is unknown, and `evidence` says what was compared. Postgres names a session
 * lock's holder by its connection already (session-locks.ts).
 */

import type { KernelLock } from '../families/family.ts';

/** One holder's own call that made or wrote the lock's location, as the harness traced it. */
export interface OwnerFact {
  holder: string;
  /** Harness ms the call's result (a file store) or the command (at the holder's wire proxy) was seen. */
  atMs: number;
  /** The call as the evidence names it: "mkdir V310.lock", "SET V310 A-1f… PX 200 NX". */
  call: string;
  /** A file store: the inode the call left at the lock's path. */
  ino?: number;
  /** A file store: the call moved an existing file there (rename, link) rather than made or wrote one. */
  moved?: boolean;
  /** A store with values: the value the acquire wrote. */
  value?: string;
  /** The value was an argument handed to a script naming the lock (what the script wrote is its own). */
  byScript?: boolean;
}

/** What a reading of the lock shows, as far as ownership goes. */
export interface OwnedReading {
  exists: boolean;
  value: string | null;
  /** A file lock's inode (absent where the family has none). */
  ino?: number | null;
  /** Harness ms the read was answered: only calls seen before it made what it found. */
  receivedAt: number;
  /** A flock lock's granted kernel locks (the family's read of /proc/locks), with the holder each pid is. */
  kernelLocks?: readonly KernelLock[];
}

export interface Owner {
  /** The holder whose lock it is, or null when nothing is there or nothing tells. */
  holder: string | null;
  how: 'declared' | 'observed' | 'unknown';
  /** How it was known: "declared: the token B's acquire returned"; "observed: B's mkdir V310.lock at 812 ms made it (inode 1234)". */
  evidence: string;
}

/**
 * The owner of what `reading` found: by a declared token (`tokens`: each holder's, undefined where
 * it reports none), else by the holders' own calls (`facts`).
 */
export function ownerOf(
  reading: OwnedReading,
  tokens: Readonly<Record<string, string | undefined>>,
  facts: readonly OwnerFact[],
): Owner {
  if (!reading.exists) return { holder: null, how: 'unknown', evidence: 'nothing was there' };
  // A kernel lock's owner is the process the kernel names: nothing a file holds can overrule it.
  const locked = reading.kernelLocks?.find((lock) => lock.holder !== undefined);
  if (locked)
    return {
      holder: locked.holder!,
      how: 'observed',
      evidence: `observed: /proc/locks lists ${locked.holder}'s ${locked.type} ${locked.mode} lock on inode ${reading.ino ?? '?'} (pid ${locked.pid})`,
    };
  const declared = Object.entries(tokens).filter(([, token]) => token !== undefined && token === reading.value);
  if (declared.length === 1) {
    const [holder] = declared[0]!;
    return { holder, how: 'declared', evidence: `declared: the token ${holder}'s acquire returned` };
  }
  // Several holders report the token read (a constant id): the trace may still tell them apart.
  const before = facts.filter((f) => f.atMs <= reading.receivedAt);
  if (typeof reading.ino === 'number') {
    // The last call that made or wrote the inode owns it; a rename or link that moved it there (a
    // temp file renamed onto the path) only when none did: moving a lock away and back is not taking it.
    const same = before.filter((f) => f.ino === reading.ino);
    const made = same.filter((f) => !f.moved).at(-1) ?? same[0];
    if (made)
      return {
        holder: made.holder,
        how: 'observed',
        evidence: `observed: ${made.holder}'s ${made.call} at ${made.atMs.toFixed(0)} ms left what is there (inode ${made.ino})`,
      };
  }
  if (reading.value !== null) {
    const wrote = before.filter((f) => f.value === reading.value);
    const holders = new Set(wrote.map((f) => f.holder));
    const last = wrote.at(-1);
    if (holders.size === 1 && last)
      return {
        holder: last.holder,
        how: 'observed',
        evidence: last.byScript
          ? `observed: ${last.holder}'s ${last.call} at ${last.atMs.toFixed(0)} ms handed this value to a script on the lock`
          : `observed: ${last.holder}'s acquire ${last.call} at ${last.atMs.toFixed(0)} ms wrote this value`,
      };
    if (holders.size > 1)
      return {
        holder: null,
        how: 'unknown',
        evidence: `the acquires of ${[...holders].join(' and ')} each wrote ${JSON.stringify(reading.value)}: nothing tells whose it is`,
      };
  }
  return { holder: null, how: 'unknown', evidence: unseen(reading, tokens) };
}

/** Why no owner was found: what the read held, and what the holders declared and did. */
function unseen(reading: OwnedReading, tokens: Readonly<Record<string, string | undefined>>): string {
  const reported = Object.entries(tokens).filter(([, token]) => token !== undefined);
  const same = reported.filter(([, token]) => token === reading.value).map(([holder]) => holder);
  const declared =
    same.length > 1
      ? `${same.join(' and ')} all report the token ${JSON.stringify(reading.value)}`
      : reported.length
        ? `no holder's token (${reported.map(([h, t]) => `${h} ${JSON.stringify(t)}`).join(', ')}) is ${JSON.stringify(reading.value)}`
        : 'no holder reports a token';
  const traced =
    typeof reading.ino === 'number'
      ? `no holder's own call the harness traced left inode ${reading.ino}`
      : "no holder's acquire the harness saw wrote that value";
  return `${declared}, and ${traced}`;
}

/**
 * Whether `reading` shows `who`'s lock: its owner, declared or observed, is `who`; where nothing
 * tells whose it is, any lock there counts when `who` reports no token to compare (the harness
 * cannot tell), and none does when `who`'s token is not what is there.
 */
export function shows(
  reading: OwnedReading,
  who: string,
  tokens: Readonly<Record<string, string | undefined>>,
  facts: readonly OwnerFact[],
): boolean {
  if (!reading.exists) return false;
  // `who`'s own token is there: its, even when another holder reports the same token (a constant id).
  if (typeof tokens[who] === 'string' && tokens[who] === reading.value) return true;
  const owner = ownerOf(reading, tokens, facts).holder;
  return owner === null ? typeof tokens[who] !== 'string' : owner === who;
}

/** A reading's identity: what the lock holds, and a file lock's inode. */
export interface LockIdentity {
  exists: boolean;
  value: string | null;
  ino?: number | null;
}

/**
 * Whether two readings show the same lock: the same value and, where both read an inode, the same
 * inode (a lock removed and made again by anyone, with no owner record to tell, is another lock).
 */
export function sameLock(a: LockIdentity, b: LockIdentity): boolean {
  if (!a.exists || !b.exists || a.value !== b.value) return false;
  return typeof a.ino !== 'number' || typeof b.ino !== 'number' || a.ino === b.ino;
}
