// GOOD for V313 (ORACLES.md row V313, renewal checked before each write and a fencing token checked at the write): a redlock using() routine that stops when its AbortSignal says auto-extension failed, checked before each write, and passes a fence INCRed on the same Redis right after the acquire with every write, so the resource rejects a write that arrives after the next holder's.
import { defineTarget } from '../../contract.ts';
import { sleep, stepMs, steps } from '../job-params.ts';
import { redlockSlot } from './client.ts';
import { extensionThreshold, reportRedlockRefusal } from './using-params.ts';

const redlock = redlockSlot();

export default defineTarget({
  description:
    'redlock 5 job: using() with auto-extension; the routine checks signal.aborted before each write and passes a fencing token from INCR with every write',
  connect: (env) => redlock.connect(env),
  async job(env) {
    let started = false;
    try {
      await redlock
        .get()
        .using([env.key], env.ttlMs, { automaticExtensionThreshold: extensionThreshold(env) }, async (signal) => {
          started = true;
          const fence = await redlock.client().incr(`${env.key}:fence`);
          for (let i = 0; i < steps(env); i++) {
            // redlock aborts the signal from its extension timer, so this check is only as fresh as that
            // timer; the fence closes the window it leaves (targets/redis/README.md).
            if (signal.aborted) {
              env.log(`lost the lease: ${signal.error?.message ?? 'redlock aborted the routine'}`);
              return;
            }
            await env.effect('write', { fence, value: i });
            await sleep(stepMs(env));
          }
        });
    } catch (error) {
      reportRedlockRefusal(env, error, started);
    }
  },
  close: () => redlock.close(),
});
