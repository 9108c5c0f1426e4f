/** Bad: a delegate reads its delegation's deadline as the home's wall-clock expiry against its own wall clock, so a home whose clock runs ahead lets it admit locks after the home re-granted the key (V317 on a cluster FAIL). */
import { recordLockTarget } from './record-lock/target.ts';

export default recordLockTarget(
  { anchor: 'send', drain: 'revoke', clock: 'remote-wall', write: 'inside' },
  "cluster record lock: a delegation's deadline is the home's wall-clock expiry compared with the delegate's wall clock",
);
