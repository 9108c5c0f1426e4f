// BAD for V312 (ORACLES.md row V312): npm etcd3's Lock whose EtcdLockFailedError is caught and logged, and the job runs anyway (locked-job.ts with checksAcquire false): a holder that did not get the lock writes beside the one that did. Twin of job-checks-lock.ts.
import { defineTarget } from '../contract.ts';
import { etcd3Slot } from './client.ts';
import { lockedJob, writeSteps } from './locked-job.ts';

const etcd = etcd3Slot();

export default defineTarget({
  description: 'etcd3 job: Lock, the job run even when the lock is held elsewhere',
  storeKey: (env) => env.key,
  connect: (env) => etcd.connect(env),
  job: (env) => lockedJob(env, etcd.get(), writeSteps(env), false),
  close: () => etcd.close(),
});
