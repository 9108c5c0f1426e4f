// GOOD for V313 (ORACLES.md row V313, Jepsen's advice): npm etcd3's Lock, every write fenced by the lock key's create revision (etcd's revisions only grow), checked at the resource, so a holder that outlived its lease has its writes rejected.
import { defineTarget } from '../contract.ts';
import { sleep, stepMs, steps } from '../redis/job-params.ts';
import { etcd3Slot } from './client.ts';
import { lockedJob } from './locked-job.ts';

const etcd = etcd3Slot();

export default defineTarget({
  description: "etcd3 job: Lock, every write fenced by the lock key's create revision",
  storeKey: (env) => env.key,
  connect: (env) => etcd.connect(env),
  job: (env) =>
    lockedJob(env, etcd.get(), async (fence) => {
      for (let i = 0; i < steps(env); i++) {
        await env.effect('write', { fence, value: i });
        await sleep(stepMs(env));
      }
    }),
  close: () => etcd.close(),
});
