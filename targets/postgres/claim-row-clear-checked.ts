// GOOD for V310 (ORACLES.md row V310) on a Postgres claim row cleared in place: the release sets holder and lease_until to NULL only WHERE holder is still the releaser's token.
import { defineTarget } from '../contract.ts';
import { claimRowLock } from './claim-row.ts';

export default defineTarget(claimRowLock({ releaseChecksOwner: true }));
