// BAD for V313 on --topology redlock:5 (--variant pause-in-acquire, --variant pause, --variant quorum): @sesamecare-oss/redlock acquire, then the writes on what acquire returned — its validity never checked, no fence.
import { quorumJob } from './quorum-job.ts';

export default quorumJob('@sesamecare-oss/redlock', { checkValidity: false, fence: false });
