// BAD for V313 (ORACLES.md row V313): a redlock using() routine that never reads its AbortSignal, so it keeps writing after auto-extension failed and the lock passed to another holder.
import { defineTarget } from '../../contract.ts';
import { sleep, stepMs, steps } from '../job-params.ts';
import { redlockSlot } from './client.ts';
import { extensionThreshold, reportRedlockRefusal } from './using-params.ts';

const redlock = redlockSlot();

export default defineTarget({
  description: 'redlock 5 job: using() with auto-extension; the routine ignores its AbortSignal',
  connect: (env) => redlock.connect(env),
  async job(env) {
    let started = false;
    try {
      await redlock
        .get()
        .using([env.key], env.ttlMs, { automaticExtensionThreshold: extensionThreshold(env) }, async () => {
          started = true;
          for (let i = 0; i < steps(env); i++) {
            await env.effect('write', { value: i });
            await sleep(stepMs(env));
          }
        });
    } catch (error) {
      reportRedlockRefusal(env, error, started);
    }
  },
  close: () => redlock.close(),
});
