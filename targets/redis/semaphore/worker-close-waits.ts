// GOOD for V313 --variant shutdown (ORACLES.md row V313): the worker's close() waits for the running job (which keeps its mutex refreshed and releases it) before stopping any refresh.
import { defineTarget } from '../../contract.ts';
import { mutexKey } from './mutex.ts';
import { mutexWorker } from './worker.ts';

const worker = mutexWorker('jobs-first');

export default defineTarget({
  description: 'redis-semaphore worker: close() (and SIGTERM) waits for the running job, then stops the mutex refresh',
  storeKey: mutexKey,
  ...worker,
});
