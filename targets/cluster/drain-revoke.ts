/** Good: a recalled delegate revokes every handle it admitted, and a staged write's commit checks its handle: a write staged before the recall is rejected at commit (V313 --explore PASS). */
import { recordLockTarget } from './record-lock/target.ts';

export default recordLockTarget(
  { anchor: 'send', drain: 'revoke', clock: 'own-monotonic', write: 'staged' },
  "cluster record lock: a recall's drain revokes every admitted handle, checked at commit",
);
