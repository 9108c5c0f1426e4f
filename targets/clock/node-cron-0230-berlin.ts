// BAD for V319 (ORACLES.md row V319) on a host in Europe/Berlin: node-cron 4.6.0 '0 30 2 * * *' with
// `timezone: 'Europe/Berlin'`, under a 10-minute fleet lock on a fixed key. On the autumn fall-back day
// node-cron's heartbeat, reading the host's local time, re-arms with no delay from 02:30 CEST through
// the repeated hour (about 1.8 million timers, 1000 a simulated second) and the 02:30 job never runs:
// 0 fires that day. GOOD for V319 on a host in UTC (--host-tz UTC): the same schedule fires once.
import cron from 'node-cron';
import { defineTarget } from '../contract.ts';
import { ioredisSlot } from '../redis/ioredis/client.ts';
import { fireUnderFleetLock } from './fleet-lock.ts';

const redis = ioredisSlot();

export default defineTarget({
  description:
    "node-cron 4.6.0 '0 30 2 * * *' with timezone Europe/Berlin, 10-minute SET NX PX fleet lock on a fixed key",
  connect: (env) => redis.connect(env),
  async schedule(env) {
    const task = cron.schedule('0 30 2 * * *', () => fireUnderFleetLock(env, redis.get(), env.key, env.ttlMs), {
      timezone: 'Europe/Berlin',
    });
    return { stop: () => void task.stop() };
  },
  close: () => redis.close(),
});
