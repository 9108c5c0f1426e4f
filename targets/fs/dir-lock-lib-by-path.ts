// BAD for V310 on --store fs: the directory-lock library (dir-lock-lib.ts) unlocking by path, bound through its public API only. Its lock is a directory with no owner record and its unlock removes whatever the path names: a holder paused past the stale time, whose lock was taken over, removes its successor's directory when it resumes. The target reports no token (the library names none): the harness tells whose directory is there by the inode each holder's own mkdir left.
import { dirLockLibTarget } from './dir-lock-lib-target.ts';

export default dirLockLibTarget(
  { checked: false },
  'directory-lock library with no owner record: mkdir, a stale one (mtime) taken over; unlock: rm -r by path',
);
