/** Bad: a leader polls the lock through its node on a timer and trusts the last answer between polls; a poll with no answer leaves the flag set, so a leader cut off from the home keeps writing (V315 on a cluster FAIL). */
import { recordLockLeader } from './record-lock/leader.ts';

export default recordLockLeader(
  { anchor: 'send', drain: 'revoke', clock: 'own-monotonic', write: 'inside' },
  'cached-flag',
  'cluster record lock leader: a timer polls the lock and sets isLeader; each write trusts the flag',
);
