// BAD for V310 (ORACLES.md row V310) on a Postgres claim row cleared in place: the release sets holder and lease_until to NULL by the key alone (no holder check), so a holder whose claim lapsed clears the next holder's; the harness reads the cleared row as free.
import { defineTarget } from '../contract.ts';
import { claimRowLock } from './claim-row.ts';

export default defineTarget(claimRowLock({ releaseChecksOwner: false }));
