// GOOD for V319 (ORACLES.md row V319): the bad croner twin with its schedule in UTC
// ({ utcOffset: 0 }, 01:30 UTC = 02:30/03:30 in Berlin), which has no transitions: once every local day.
import { Cron } from 'croner';
import { defineTarget } from '../contract.ts';
import { ioredisSlot } from '../redis/ioredis/client.ts';
import { fireUnderFleetLock } from './fleet-lock.ts';

const redis = ioredisSlot();

export default defineTarget({
  description: 'croner 01:30 daily in UTC (utcOffset 0), 10-minute SET NX PX fleet lock on a fixed key',
  connect: (env) => redis.connect(env),
  async schedule(env) {
    const job = new Cron('30 1 * * *', { utcOffset: 0 }, () =>
      fireUnderFleetLock(env, redis.get(), env.key, env.ttlMs),
    );
    return { stop: () => job.stop() };
  },
  close: () => redis.close(),
});
