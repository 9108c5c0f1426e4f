// BAD for V313 on --store fs: a job under the owner-record lease file (lease-record.ts) with a fixed expiry and no renewal, so a holder paused past it keeps writing after the next holder took over.
import { rm } from 'node:fs/promises';
import { defineTarget } from '../contract.ts';
import { sleep, stepMs, steps } from '../redis/job-params.ts';
import { acquireLease, leaseFile, leaseLocation } from './lease-record.ts';

export default defineTarget({
  description: 'job under a wx-created lease file { ownerId, expiresAt }: fixed expiry, no renewal, writes',
  storeKey: leaseLocation,
  async job(env) {
    if (!(await acquireLease(env))) {
      env.log('the lease is held elsewhere; skipping the job');
      return;
    }
    for (let i = 0; i < steps(env); i++) {
      await env.effect('write', { value: i });
      await sleep(stepMs(env));
    }
    await rm(leaseFile(env).path, { force: true });
  },
});
