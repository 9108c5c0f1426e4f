// GOOD for V310 on --store fs (the pause): dir-lock-lib-by-path.ts's library with its unlock checked: it removes the directory only while the path still names the one it made (inode and birth time), and leaves a successor's. Its check and its rmdir are two calls, so a hold between them (--variant narrow, --explore) still shows it removing another's lock. The target reports no token: whose directory is there, the harness observes.
import { dirLockLibTarget } from './dir-lock-lib-target.ts';

export default dirLockLibTarget(
  { checked: true },
  'directory-lock library with no owner record: mkdir, a stale one (mtime) taken over; unlock: rmdir only while the path names the directory it made (inode, birth time)',
);
