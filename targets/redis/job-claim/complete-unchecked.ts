// BAD for V310 (ORACLES.md row V310, release without an owner check): a job claim kept in job:<key> (lockId, and lockExpiresAt on the worker's clock, no Redis TTL) whose complete() clears the claim with HDEL and no owner check, so a worker paused past its claim clears the next worker's.
import { appClockClaim } from './app-clock-claim.ts';

export default appClockClaim({ completeChecksOwner: false, renews: true });
