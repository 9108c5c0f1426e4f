// GOOD for V313 --variant pause on --topology redlock:5: @sesamecare-oss/redlock acquire, every write fenced by INCR on a separate counter (env.counterUrl, not a master).
import { quorumJob } from './quorum-job.ts';

export default quorumJob('@sesamecare-oss/redlock', { checkValidity: false, fence: true });
