// BAD for V313 (ORACLES.md row V313, Jepsen's etcd 3.4.3 case): npm etcd3's Lock held over the job's writes with no fence: a holder paused (or cut off) past its lease keeps writing after another took the lock.
import { defineTarget } from '../contract.ts';
import { etcd3Slot } from './client.ts';
import { lockedJob, writeSteps } from './locked-job.ts';

const etcd = etcd3Slot();

export default defineTarget({
  description: 'etcd3 job: Lock (a lease kept alive by the client), writes with no fence',
  storeKey: (env) => env.key,
  connect: (env) => etcd.connect(env),
  job: (env) => lockedJob(env, etcd.get(), writeSteps(env)),
  close: () => etcd.close(),
});
