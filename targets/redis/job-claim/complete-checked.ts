// GOOD for V310 and V313 (ORACLES.md rows V310, V313): the same app-clock job claim, complete() clearing it only while lockId is still its own, and the job renewing its claim (owner-checked, unexpired by its clock) before each write.
import { appClockClaim } from './app-clock-claim.ts';

export default appClockClaim({ completeChecksOwner: true, renews: true });
