// GOOD for V313 on --store fs: lease-job.ts with a fencing token: each holder claims the next number under the lease (mkdir <key>.fences/<n>, which only one process can create) and passes it with every write, so the resource rejects a lapsed holder's writes.
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { defineTarget, type TargetEnv } from '../contract.ts';
import { sleep, stepMs, steps } from '../redis/job-params.ts';
import { acquireLease, leaseFile, leaseLocation } from './lease-record.ts';

/** The next fencing token: the first n for which this process creates <key>.fences/<n>. */
async function claimFence(env: TargetEnv): Promise<number> {
  const fences = join(env.dir!, `${env.key}.fences`);
  await mkdir(fences, { recursive: true });
  for (let n = 1; ; n++) {
    const claimed = await mkdir(join(fences, String(n))).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') return false;
        throw error;
      },
    );
    if (claimed) return n;
  }
}

export default defineTarget({
  description:
    'job under a wx-created lease file { ownerId, expiresAt }: fixed expiry, no renewal, a fencing token with every write',
  storeKey: leaseLocation,
  async job(env) {
    if (!(await acquireLease(env))) {
      env.log('the lease is held elsewhere; skipping the job');
      return;
    }
    const fence = await claimFence(env);
    for (let i = 0; i < steps(env); i++) {
      await env.effect('write', { fence, value: i });
      await sleep(stepMs(env));
    }
    await rm(leaseFile(env).path, { force: true });
  },
});
