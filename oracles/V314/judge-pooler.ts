/**
 * The judgement of V314's pooler scenario, a pure function of what it recorded: B is denied while
 * A holds the lock. Judged only when A took the lock and A and B were two distinct clients of the
 * pooler; a denial counts only when B's attempt ran on another server session than A's lock and B
 * took the lock once A had released it.
 */
import { firstLine, nothingProven, type Check, type Judgement } from '../../src/core/judgement.ts';
import { describeSessionLocks } from '../../src/judging/session-locks.ts';
import type { Recorded } from '../../src/oracle/definition.ts';
import { A_TOOK_LOCK } from './judge-pool.ts';
import type { V314PoolerObservations } from './observations.ts';
import type { V314Params } from './params.ts';

export const DISTINCT_CLIENTS = 'A and B were two distinct clients of the pooler';
export const DENIAL_FROM_A = "B's denial came from A's lock, held on another server session";

export function judgePooler({ observations: o, history }: Recorded<V314PoolerObservations>, p: V314Params): Judgement {
  const preconditions: Check[] = [];
  const held = o.locksAfterAcquire;
  const lockSessions = held.map((l) => l.session);
  preconditions.push({
    name: A_TOOK_LOCK,
    held: o.acquired && held.length > 0,
    detail: o.acquired
      ? `A's acquire returned a lease; pg_locks on the server showed ${describeSessionLocks(held)}`
      : 'A was denied on an empty server',
  });
  const b = o.b;
  const bSessions = b?.sessions ?? [];
  if (b) {
    const holders = new Set(b.clients.map((c) => c.holder));
    preconditions.push({
      name: DISTINCT_CLIENTS,
      held: holders.size === 2,
      detail: `PgBouncer's SHOW CLIENTS listed ${b.clients.length} client connection(s) from the holders (${[...holders].join(', ') || 'none'})`,
    });
    if (!b.granted) {
      const otherSession = bSessions.length > 0 && bSessions.every((pid) => !lockSessions.includes(pid));
      preconditions.push({
        name: DENIAL_FROM_A,
        held: b.aRelease.ok && b.tookLockAfterA === true && otherSession,
        detail:
          `B's attempt ran on server session(s) ${bSessions.join(', ') || 'unseen'}, A's lock was held by session ${lockSessions.join(', ')}; ` +
          (b.tookLockAfterA
            ? 'B took the lock once A had released it'
            : `B was still denied after A released${b.aRelease.ok ? '' : ` (A's release threw: ${firstLine(b.aRelease.error)})`}`),
      });
    }
  }

  const granted = b?.granted === true;
  const sameSession = bSessions.some((pid) => lockSessions.includes(pid));
  const leftAfterAll = (b?.locksAfterAll ?? []).filter((l) => l.granted);
  return {
    preconditions,
    counts: {
      bGrantedWhileAHeld: granted ? 1 : 0,
      bRanOnLockSession: sameSession ? 1 : 0,
      advisoryLocksAfterARelease: (b?.locksAfterARelease ?? []).filter((l) => l.granted).length,
      advisoryLocksAfterHoldersGone: leftAfterAll.length,
    },
    property: {
      name: 'B is denied while A holds the lock',
      held: !granted,
      detail: granted
        ? `B's acquire returned a lease while A held the lock${sameSession ? ` (B's statement ran on server session ${bSessions.join(', ')}, the session holding A's lock)` : ''}`
        : 'B was denied while A held the lock',
      offending: granted ? history.filter((e) => e.kind === 'acquire-ok') : [],
    },
    explanation:
      nothingProven(preconditions) ??
      (granted
        ? `A took a session advisory lock through PgBouncer in ${p.poolMode} mode, and while A held it B, a different client, asked for the same lock and got it. ` +
          (sameSession
            ? `PgBouncer ran B's statement on server session ${bSessions.join(', ')}, the very session that holds A's lock; a session lock is re-entrant, so Postgres granted it. `
            : "B's statement ran on a server session that did not see A's lock. ") +
          'Both holders believed they held the lock at once.' +
          (leftAfterAll.length
            ? ` After both released and disconnected, pg_locks still showed ${describeSessionLocks(leftAfterAll)}.`
            : '')
        : `A held the lock through PgBouncer in ${p.poolMode} mode; B's attempt ran on server session ${bSessions.join(', ')}, not A's (${lockSessions.join(', ')}), and was denied; B took the lock once A released it. The lock is tied to a session the pooler does not share (a transaction-scoped lock, or session pooling).`),
  };
}
