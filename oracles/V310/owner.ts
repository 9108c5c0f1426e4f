/**
 * Whose lock a V310 reading shows (src/judging/ownership.ts): by the token A, B or C declared, else
 * by the holders' own calls the harness traced (`owners`: which holder's call left the inode a file
 * lock has, which holder's acquire wrote the value a key holds). Pure: play and judge both ask it.
 */
import { ownerOf, shows, type OwnedReading, type Owner, type OwnerFact } from '../../src/judging/ownership.ts';
import type { V310Observations } from './observations.ts';

/** What V310 knows of ownership: the holders' leases (tokens) and the traced facts. */
type Known = Pick<V310Observations, 'leaseA' | 'b' | 'c' | 'owners'>;

const tokensOf = (o: Known): Record<string, string | undefined> => ({
  A: o.leaseA?.token,
  B: o.b?.lease?.token,
  C: o.c?.lease?.token,
});

const factsOf = (o: Known): readonly OwnerFact[] => o.owners ?? [];

/** The owner of what `lock` found, and how that is known. */
export const ownerIn = (o: Known, lock: OwnedReading): Owner => ownerOf(lock, tokensOf(o), factsOf(o));

/** Whether `lock` shows `who`'s lock (by its owner; with nothing to tell, anything there when `who` reports no token). */
export const showsLockOf = (o: Known, lock: OwnedReading, who: string): boolean =>
  shows(lock, who, tokensOf(o), factsOf(o));

/** Whether the read right after B acquired told B's lock apart (by B's token or by B's own calls): then B's lock is judged by its owner. */
export const bIdentified = (o: Known & Pick<V310Observations, 'seenB'>): boolean =>
  o.seenB !== null && o.seenB.lock.exists && ownerIn(o, o.seenB.lock).holder === 'B';
