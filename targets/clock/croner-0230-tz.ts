// BAD for V319 (ORACLES.md row V319): croner '30 2 * * *' in the process's zone (TZ=Europe/Berlin set by
// the deployment) under a 10-minute fleet lock. On a spring-forward day 02:30 does not exist, and croner 9
// skips the day: the job does not run at all.
import { Cron } from 'croner';
import { defineTarget } from '../contract.ts';
import { ioredisSlot } from '../redis/ioredis/client.ts';
import { fireUnderFleetLock } from './fleet-lock.ts';

const redis = ioredisSlot();

export default defineTarget({
  description: 'croner 02:30 daily in TZ (process zone), 10-minute SET NX PX fleet lock on a fixed key',
  connect: (env) => redis.connect(env),
  async schedule(env) {
    const job = new Cron('30 2 * * *', () => fireUnderFleetLock(env, redis.get(), env.key, env.ttlMs));
    return { stop: () => job.stop() };
  },
  close: () => redis.close(),
});
