// BAD for V315 --fault connection-killed (ORACLES.md row V315, a cached isLeader flag): the replica leads once it holds a session advisory lock on its own session; a timer checks that session and only logs a failure, and each write trusts the flag, so when the server ends the session (pg_terminate_backend) and the lock with it, the next replica leads and this one writes on.
import { defineTarget } from '../../contract.ts';
import { sleep, stepMs } from '../../redis/job-params.ts';
import { OwnSession } from './own-session.ts';

let session: OwnSession | undefined;

export default defineTarget({
  description:
    'pg leader: pg_try_advisory_lock on its own session until it leads; a timer checks the session, logging failures; each write trusts the flag',
  connect: async (env) => void (await (session = new OwnSession(env)).pid()),
  async leader(env) {
    let isLeader = false;
    const timer = setInterval(() => void session!.pid(), Math.max(5, Math.round(env.ttlMs / 3)));
    try {
      for (let i = 0; !env.signal.aborted; i++) {
        if (!isLeader) isLeader = await session!.tryLock();
        if (isLeader) await env.effect('write', { value: i });
        await sleep(stepMs(env));
      }
    } finally {
      clearInterval(timer);
    }
  },
  close: () => session?.close() ?? Promise.resolve(),
});
