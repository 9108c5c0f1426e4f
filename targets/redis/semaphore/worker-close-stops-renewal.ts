// BAD for V313 --variant shutdown (ORACLES.md row V313): the worker's close() stops its mutexes' refresh before the running job ends, so the job's lock lapses and passes to another worker while the job still writes.
import { defineTarget } from '../../contract.ts';
import { mutexKey } from './mutex.ts';
import { mutexWorker } from './worker.ts';

const worker = mutexWorker('stop-refresh-first');

export default defineTarget({
  description: 'redis-semaphore worker: close() (and SIGTERM) stops the mutex refresh, then waits for the running job',
  storeKey: mutexKey,
  ...worker,
});
