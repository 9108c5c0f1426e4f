/**
 * V314 scenario (b), "pooler": A and B are two clients of one PgBouncer. A takes the lock; while
 * A holds it, B tries. Through a transaction-mode pooler a session advisory lock belongs to
 * whichever server session ran the statement, and the pooler hands that session to the next
 * client: B's try can land on A's session, where the lock is re-entrant, and succeed.
 */
import { nothingProven, firstLine } from '../../src/core/judgement.ts';
import type { Check, Judgement } from '../../src/core/judgement.ts';
import type { LeaseSummary } from '../../src/holder/holder-protocol.ts';
import { describeSessionLocks } from '../../src/judging/session-locks.ts';
import type { SessionLock } from '../../src/families/family.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import type { V314Params } from './params.ts';

export async function playPooler(s: Scenario, p: V314Params): Promise<Judgement> {
  if (s.store.kind !== 'pgbouncer')
    throw new Error(`V314's pooler scenario runs through PgBouncer, but the store is ${s.store.kind}`);
  const [a, b] = await Promise.all([s.holder('A'), s.holder('B')]);
  const preconditions: Check[] = [];
  let leaseB: LeaseSummary | null = null;
  let clients: Array<{ holder: string; state: string }> = [];
  let bSessions: number[] = [];
  let afterARelease: SessionLock[] | undefined;
  let afterAll: SessionLock[] | undefined;

  const leaseA = await a.acquire();
  const held = (await s.observeSessionLocks('after A acquired')).filter((l) => l.granted);
  const lockSessions = held.map((l) => l.session);
  preconditions.push({
    name: 'A took the lock',
    held: leaseA !== null && held.length > 0,
    detail: leaseA
      ? `A's acquire returned a lease; pg_locks on the server showed ${describeSessionLocks(held)}`
      : 'A was denied on an empty server',
  });
  if (!leaseA || held.length === 0) return judge();

  s.progress(`A holds the lock through PgBouncer (${p.poolMode} mode); B tries`);
  const hold = s.faults.apply('latch', 'A', "interleaving forced: the harness withholds A's release while B tries", {
    poolMode: p.poolMode,
  });
  leaseB = await b.acquire();
  bSessions = (await s.observeSessions("after B's attempt")).filter((x) => x.holder === 'B').map((x) => x.session);
  await s.observeSessionLocks("after B's attempt");
  const poolerClients = s.sessionLocks().poolerClients;
  if (!poolerClients) throw new Error('V314 pooler needs a pooler in front of the store (--store pgbouncer)');
  clients = (await poolerClients()).filter((c) => ['A', 'B'].includes(c.holder));
  const distinct = new Set(clients.map((c) => c.holder)).size === 2;
  preconditions.push({
    name: 'A and B were two distinct clients of the pooler',
    held: distinct,
    detail: `PgBouncer's SHOW CLIENTS listed ${clients.length} client connection(s) from the holders (${[...new Set(clients.map((c) => c.holder))].join(', ') || 'none'})`,
  });

  s.faults.lift(hold);
  const releaseA = await a.release(leaseA);
  afterARelease = await s.observeSessionLocks('after A released');
  if (leaseB) {
    await b.release(leaseB);
  } else {
    // A denial only counts if B can take the lock once A has let go: a target that is always
    // denied would otherwise pass.
    const later = await b.acquire();
    const otherSession = bSessions.length > 0 && bSessions.every((pid) => !lockSessions.includes(pid));
    preconditions.push({
      name: "B's denial came from A's lock, held on another server session",
      held: releaseA.ok && later !== null && otherSession,
      detail:
        `B's attempt ran on server session(s) ${bSessions.join(', ') || 'unseen'}, A's lock was held by session ${lockSessions.join(', ')}; ` +
        (later
          ? 'B took the lock once A had released it'
          : `B was still denied after A released${releaseA.ok ? '' : ` (A's release threw: ${firstLine(releaseA.error)})`}`),
    });
    if (later) await b.release(later);
  }
  await Promise.all([a.close(), b.close()]);
  afterAll = await s.observeSessionLocks('after both holders released and disconnected');
  return judge();

  function judge(): Judgement {
    const sameSession = bSessions.some((pid) => lockSessions.includes(pid));
    const leftAfterAll = (afterAll ?? []).filter((l) => l.granted);
    return {
      preconditions,
      counts: {
        bGrantedWhileAHeld: leaseB ? 1 : 0,
        bRanOnLockSession: sameSession ? 1 : 0,
        advisoryLocksAfterARelease: (afterARelease ?? []).filter((l) => l.granted).length,
        advisoryLocksAfterHoldersGone: leftAfterAll.length,
      },
      property: {
        name: 'B is denied while A holds the lock',
        held: leaseB === null,
        detail: leaseB
          ? `B's acquire returned a lease while A held the lock${sameSession ? ` (B's statement ran on server session ${bSessions.join(', ')}, the session holding A's lock)` : ''}`
          : 'B was denied while A held the lock',
        offending: leaseB ? s.history.events().filter((e) => e.kind === 'acquire-ok') : [],
      },
      explanation:
        nothingProven(preconditions) ??
        (leaseB
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
}
