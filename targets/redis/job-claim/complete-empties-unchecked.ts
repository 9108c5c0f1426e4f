// BAD for V310 (ORACLES.md row V310, release without an owner check): the app-clock job claim whose complete() clears the claim as queue libraries do, emptying its fields (HSET job:<key> lockId '' lockExpiresAt ''), with no owner check, so a worker paused past its claim empties the next worker's.
import { appClockClaim } from './app-clock-claim.ts';

export default appClockClaim({ completeChecksOwner: false, clears: 'empty-fields', renews: true });
