/** Good: a delegate anchors a grant's deadline at the request's send, so a delayed reply that outlived its delegation is discarded (V313 --variant renewal-wire PASS). */
import { recordLockTarget } from './record-lock/target.ts';

export default recordLockTarget(
  { anchor: 'send', drain: 'revoke', clock: 'own-monotonic', write: 'inside' },
  "cluster record lock: a grant's deadline anchored at the request's send",
);
