// Measured for V313 --variant pause-in-acquire on --topology redlock:5: @sesamecare-oss/redlock using() (auto-extension at ttl/2), its routine checking signal.aborted before each write.
import { quorumJob } from './quorum-job.ts';

export default quorumJob('@sesamecare-oss/redlock', { checkValidity: false, fence: false, using: true });
