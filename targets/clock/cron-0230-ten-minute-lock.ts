// BAD for V319 (ORACLES.md row V319): `cron` (CronJob) '0 30 2 * * *' with timeZone from the deployment's
// TZ, under a 10-minute fleet lock on a fixed key. On New York's autumn day cron 4 fires at 01:30 and again
// at 02:30 EST; the lock has lapsed an hour later, so the job runs twice.
import { CronJob } from 'cron';
import { defineTarget } from '../contract.ts';
import { ioredisSlot } from '../redis/ioredis/client.ts';
import { fireUnderFleetLock } from './fleet-lock.ts';

const redis = ioredisSlot();

export default defineTarget({
  description: 'cron CronJob 02:30 daily with timeZone = TZ, 10-minute SET NX PX fleet lock on a fixed key',
  connect: (env) => redis.connect(env),
  async schedule(env) {
    const job = CronJob.from({
      cronTime: '0 30 2 * * *',
      timeZone: process.env.TZ ?? 'UTC',
      start: true,
      onTick: () => fireUnderFleetLock(env, redis.get(), env.key, env.ttlMs),
    });
    return { stop: () => job.stop() };
  },
  close: () => redis.close(),
});
