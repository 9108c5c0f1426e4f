// GOOD for V310 and V313 (ORACLES.md rows V310, V313): the app-clock job claim, renewed (owner-checked) before each write, whose complete() empties its fields (lockId '', lockExpiresAt '') only while lockId is still its own, compared and emptied in one Lua script.
import { appClockClaim } from './app-clock-claim.ts';

export default appClockClaim({ completeChecksOwner: true, clears: 'empty-fields', renews: true });
