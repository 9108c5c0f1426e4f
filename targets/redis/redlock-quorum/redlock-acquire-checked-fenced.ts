// GOOD for V313 --explore on --topology redlock:5 (every point: inside the acquire and after it): redlock 5 acquire, the lock's validity checked (lock.expiration > Date.now()) before acting, and every write fenced by INCR on a separate counter (env.counterUrl, not a master).
import { quorumJob } from './quorum-job.ts';

export default quorumJob('redlock', { checkValidity: true, fence: true });
