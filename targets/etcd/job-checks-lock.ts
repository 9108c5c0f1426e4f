// GOOD for V312 (ORACLES.md row V312): npm etcd3's Lock whose EtcdLockFailedError skips the job (locked-job.ts), so a holder that did not get the lock makes no write. Twin of job-ignores-lock.ts.
import { defineTarget } from '../contract.ts';
import { etcd3Slot } from './client.ts';
import { lockedJob, writeSteps } from './locked-job.ts';

const etcd = etcd3Slot();

export default defineTarget({
  description: 'etcd3 job: Lock, the job skipped when the lock is held elsewhere',
  storeKey: (env) => env.key,
  connect: (env) => etcd.connect(env),
  job: (env) => lockedJob(env, etcd.get(), writeSteps(env), true),
  close: () => etcd.close(),
});
