// BAD for V312 on --store fs, found only by --explore: the job checks existsSync(<key>.lock), then creates it with a plain writeFileSync (no 'wx'), whose result cannot say another holder got there in between. The plain scenario passes (the check sees P's lock and A skips the job); held before its create while P takes the lock, A overwrites P's lock file and writes. The create with 'wx' checked (job-checks-create.ts) is the guard.
import { existsSync, writeFileSync } from 'node:fs';
import { defineTarget } from '../contract.ts';
import { lockFile, newJobToken, releaseLock, work } from './lock-file-job.ts';

export default defineTarget({
  description: 'fs job: existsSync(<key>.lock), then writeFileSync(<key>.lock, token) without wx, then the writes',
  storeKey: (env) => ({ path: lockFile(env).name }),
  async job(env) {
    const { path } = lockFile(env);
    if (existsSync(path)) {
      env.log('the lock file is held elsewhere; skipping the job');
      return;
    }
    const token = newJobToken(env);
    writeFileSync(path, token);
    await work(env);
    await releaseLock(env, token);
  },
});
