/** Bad: a recalled delegate drains by waiting on its admission count, which an unlock drops to zero while the write is still staged: that write commits after the successor was admitted (V313 --explore FAIL at the staged write). */
import { recordLockTarget } from './record-lock/target.ts';

export default recordLockTarget(
  { anchor: 'send', drain: 'admissions', clock: 'own-monotonic', write: 'staged' },
  "cluster record lock: a recall's drain waits on the admission count only (the design's first implementation)",
);
