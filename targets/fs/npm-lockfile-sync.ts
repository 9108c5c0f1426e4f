// npm's lockfile 1.0.4, lockSync(path, { stale }): PASSes V311 on --store fs with one contender (a killed holder's stale lock is reclaimed); BAD for V311 with --contenders 3 explored: its stale reclaim is statSync → unlinkSync → openSync 'wx' with nothing re-checked, so a contender held after it saw the lock stale unlinks the lock another contender has just re-created, creates its own, and both hold it. Its twin npm-lockfile.ts takes the same lock with lock(), whose reclaim re-checks under a .STALE lock.
import { npmLockfile, npmLockfileTarget } from './npm-lockfile-target.ts';

export default npmLockfileTarget(
  'npm lockfile 1.0.4: lockSync(path, { stale }); unlockSync(path)',
  async (path, options) => npmLockfile.lockSync(path, options),
);
