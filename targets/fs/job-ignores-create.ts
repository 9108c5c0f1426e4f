// BAD for V312 on --store fs (ORACLES.md row V312): the job creates its lock file with 'wx' and ignores the result: EEXIST (another holder's lock is there) does not stop it, so it writes anyway. Twin of job-checks-create.ts.
import { defineTarget } from '../contract.ts';
import { createLock, lockFile, newJobToken, releaseLock, work } from './lock-file-job.ts';

export default defineTarget({
  description: "fs job: writeFile(<key>.lock, token, { flag: 'wx' }) with its result ignored, then the writes",
  storeKey: (env) => ({ path: lockFile(env).name }),
  async job(env) {
    const token = newJobToken(env);
    await createLock(env, token);
    await work(env);
    await releaseLock(env, token);
  },
});
