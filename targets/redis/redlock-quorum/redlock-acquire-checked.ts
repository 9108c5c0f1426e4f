// GOOD for V313 --variant pause-in-acquire on --topology redlock:5: redlock 5 acquire, then the lock's validity checked (lock.expiration > Date.now()) before acting.
import { quorumJob } from './quorum-job.ts';

export default quorumJob('redlock', { checkValidity: true, fence: false });
