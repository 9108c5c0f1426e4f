// GOOD for V315 --fault connection-killed (ORACLES.md row V315, re-check before each effect): the same session advisory lock on its own session, and before every write the replica asks for the session answering now: unless it is the one that took the lock, the replica steps down and writes nothing.
import { defineTarget } from '../../contract.ts';
import { sleep, stepMs } from '../../redis/job-params.ts';
import { OwnSession } from './own-session.ts';

let session: OwnSession | undefined;

export default defineTarget({
  description:
    'pg leader: pg_try_advisory_lock on its own session until it leads; before every write its session checked (the same backend), else it steps down',
  connect: async (env) => void (await (session = new OwnSession(env)).pid()),
  async leader(env) {
    let leadingOn: number | undefined;
    for (let i = 0; !env.signal.aborted; i++) {
      if (leadingOn === undefined && (await session!.tryLock())) leadingOn = await session!.pid();
      if (leadingOn !== undefined && (await session!.pid()) !== leadingOn) leadingOn = undefined;
      if (leadingOn !== undefined) await env.effect('write', { value: i });
      await sleep(stepMs(env));
    }
  },
  close: () => session?.close() ?? Promise.resolve(),
});
