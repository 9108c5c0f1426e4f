// BAD for V313 (ORACLES.md row V313, lease shorter than the work): the same app-clock job claim with an owner-checked complete() but no renewal, so a worker paused past lockExpiresAt keeps writing after the next worker claimed the job.
import { appClockClaim } from './app-clock-claim.ts';

export default appClockClaim({ completeChecksOwner: true, renews: false });
