/** Good: a delegate counts its delegation's deadline on its own monotonic clock from the request's send, so no other node's clock moves it (V317 on a cluster PASS). */
import { recordLockTarget } from './record-lock/target.ts';

export default recordLockTarget(
  { anchor: 'send', drain: 'revoke', clock: 'own-monotonic', write: 'inside' },
  "cluster record lock: a delegation's deadline counted on the delegate's own monotonic clock",
);
