// GOOD for V312 on --store fs (ORACLES.md row V312): the job returns before its first write when its 'wx' create of the lock file finds another holder's file there (EEXIST). Twin of job-ignores-create.ts.
import { defineTarget } from '../contract.ts';
import { createLock, lockFile, newJobToken, releaseLock, work } from './lock-file-job.ts';

export default defineTarget({
  description: "fs job: writeFile(<key>.lock, token, { flag: 'wx' }) checked (EEXIST: skip the job), then the writes",
  storeKey: (env) => ({ path: lockFile(env).name }),
  async job(env) {
    const token = newJobToken(env);
    if ((await createLock(env, token)) === 'held elsewhere') {
      env.log('the lock file is held elsewhere; skipping the job');
      return;
    }
    await work(env);
    await releaseLock(env, token);
  },
});
