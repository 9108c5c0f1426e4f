// GOOD for V313 --variant pause on --topology redlock:5: redlock 5 acquire, every write fenced by INCR on a separate counter (env.counterUrl, not a master).
import { quorumJob } from './quorum-job.ts';

export default quorumJob('redlock', { checkValidity: false, fence: true });
