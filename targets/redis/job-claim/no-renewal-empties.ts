// BAD for V313 (ORACLES.md row V313, lease shorter than the work): the app-clock job claim with no renewal whose owner-checked complete() empties the claim's fields (lockId '', lockExpiresAt '') as queue libraries do, so a worker paused past lockExpiresAt keeps writing after the next worker claimed the job, and the harness reads the emptied claim as free.
import { appClockClaim } from './app-clock-claim.ts';

export default appClockClaim({ completeChecksOwner: true, clears: 'empty-fields', renews: false });
