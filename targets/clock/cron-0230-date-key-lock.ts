// GOOD for V319 (ORACLES.md row V319): the bad cron twin with the fleet lock keyed by the local date and
// held for 25 hours, so a second firing on the same local day finds the lock taken.
import { CronJob } from 'cron';
import { defineTarget } from '../contract.ts';
import { ioredisSlot } from '../redis/ioredis/client.ts';
import { fireUnderFleetLock, localDateNow } from './fleet-lock.ts';

const redis = ioredisSlot();
const DAY_LOCK_MS = 25 * 3600 * 1000;

export default defineTarget({
  description: 'cron CronJob 02:30 daily with timeZone = TZ, SET NX PX 25 h fleet lock keyed by the local date',
  connect: (env) => redis.connect(env),
  async schedule(env) {
    const job = CronJob.from({
      cronTime: '0 30 2 * * *',
      timeZone: process.env.TZ ?? 'UTC',
      start: true,
      onTick: () => fireUnderFleetLock(env, redis.get(), `${env.key}:${localDateNow()}`, DAY_LOCK_MS),
    });
    return { stop: () => job.stop() };
  },
  close: () => redis.close(),
});
