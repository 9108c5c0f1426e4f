/** Bad: a delegate anchors a grant's deadline at the reply's arrival, so a delayed reply installs a delegation beside the home's new one (V313 --variant renewal-wire FAIL). */
import { recordLockTarget } from './record-lock/target.ts';

export default recordLockTarget(
  { anchor: 'arrival', drain: 'revoke', clock: 'own-monotonic', write: 'inside' },
  "cluster record lock: a grant's deadline anchored at the reply's arrival (the design's first implementation)",
);
