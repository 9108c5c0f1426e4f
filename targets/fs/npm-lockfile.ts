// npm's lockfile 1.0.4, lock(path, { stale }, cb): GOOD for V311 on --store fs with --contenders 3 explored, where npm-lockfile-sync.ts is bad. Its stale reclaim first takes <path>.STALE with 'wx', stats the lock again under it, and only then unlinks the lock and links the .STALE file in its place: a contender that saw the lock stale but was overtaken finds it fresh at the re-check (or the .STALE file taken), and is denied. BAD for V310 on --store fs (--ttl 1000): its unlock unlinks whatever file the path names, so a holder paused past the stale time removes its successor's lock when it resumes (whose lock is there is observed: the harness saw B's link of its .STALE file make it).
import { promisify } from 'node:util';
import { npmLockfile, npmLockfileTarget } from './npm-lockfile-target.ts';

const lock = promisify(npmLockfile.lock);

export default npmLockfileTarget('npm lockfile 1.0.4: lock(path, { stale }, cb); unlockSync(path)', (path, options) =>
  lock(path, options),
);
