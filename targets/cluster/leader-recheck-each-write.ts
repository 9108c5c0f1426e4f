/** Good: a leader takes the lock through its node before every write (local under a live delegation; past its deadline the node asks the home), so a leader cut off from the home stops writing (V315 on a cluster PASS). */
import { recordLockLeader } from './record-lock/leader.ts';

export default recordLockLeader(
  { anchor: 'send', drain: 'revoke', clock: 'own-monotonic', write: 'inside' },
  'recheck-each-write',
  'cluster record lock leader: the lock taken through its node before every write, the write only on a grant',
);
