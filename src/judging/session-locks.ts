/** How session locks read in details and explanations: "1 advisory lock(s) (session 123 of A, granted)". */
import type { SessionLock } from '../families/family.ts';

export function describeSessionLocks(locks: readonly SessionLock[]): string {
  if (locks.length === 0) return 'no advisory lock';
  const each = locks.map(
    (l) => `session ${l.session}${l.holder ? ` of ${l.holder}` : ''}, ${l.granted ? 'granted' : 'waiting'}`,
  );
  return `${locks.length} advisory lock(s) (${each.join('; ')})`;
}
