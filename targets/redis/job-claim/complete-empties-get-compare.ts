// BAD for V310 (ORACLES.md row V310, the narrow GET → compare → clear): the app-clock job claim whose complete() reads lockId, compares it in the worker, then empties the claim's fields with a command of its own (HSET job:<key> lockId '' lockExpiresAt ''): a worker held between its compare and its HSET while its claim lapses and the next worker claims the job empties the next worker's claim. A pause before complete() (the default variant) misses it: the resumed worker reads the next worker's lockId and leaves it.
import { appClockClaim } from './app-clock-claim.ts';

export default appClockClaim({ completeChecksOwner: 'read-then-clear', clears: 'empty-fields', renews: true });
