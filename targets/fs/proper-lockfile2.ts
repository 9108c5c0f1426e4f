// @bybrave/proper-lockfile2 5.0.0 (npm), the maintained fork of proper-lockfile 4.1.2 with its API: GOOD for V311 on --store fs with --ttl 3000 or more and --contenders 3 explored, where proper-lockfile.ts is bad. It claims a stale lock by renaming it to a path of its own and re-checking the claimed directory's mtime is the stale one it saw (else gives it back), so of two contenders reclaiming one stale lock only one can remove it.
import { createRequire } from 'node:module';
import { properLockfileTarget, type ProperLockfile } from './proper-lockfile-target.ts';

export default properLockfileTarget(
  createRequire(import.meta.url)('@bybrave/proper-lockfile2') as ProperLockfile,
  'proper-lockfile2',
  '@bybrave/proper-lockfile2 5.0.0: lock(file, { stale, retries: 0 }); release() from the lock',
);
