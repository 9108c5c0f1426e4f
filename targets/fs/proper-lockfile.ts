// proper-lockfile 4.1.2 (npm), good for V311 on --store fs with --ttl 3000 or more and one contender: its lock is `mkdir <file>.lock`, kept fresh by touching its mtime every stale/2 ms; a lock whose mtime is older than `stale` is taken over (stat, rmdir, mkdir). Its floor for `stale` is 2000 ms. BAD for V311 with --contenders 3 explored: two contenders reclaiming a dead holder's stale lock both hold it (upstream issue #121: one held between its stat and its rmdir removes the lock the other has just re-created, then re-creates it). Its twin proper-lockfile2.ts is the maintained fork that claims a stale lock by renaming it. BAD for V310 explored (--ttl 3000): its unlock removes the lock directory by path (rmdir), so A held before that rmdir until B took over removes B's lock.
import { createRequire } from 'node:module';
import { properLockfileTarget, type ProperLockfile } from './proper-lockfile-target.ts';

export default properLockfileTarget(
  createRequire(import.meta.url)('proper-lockfile') as ProperLockfile,
  'proper-lockfile',
  'proper-lockfile 4.1.2: lock(file, { stale, retries: 0 }); release() from the lock',
);
