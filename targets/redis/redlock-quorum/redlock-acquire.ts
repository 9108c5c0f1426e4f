// BAD for V313 on --topology redlock:5 (--variant pause-in-acquire, --variant pause, --variant quorum): redlock 5 acquire, then the writes on what acquire returned — its validity never checked, no fence.
import { quorumJob } from './quorum-job.ts';

export default quorumJob('redlock', { checkValidity: false, fence: false });
