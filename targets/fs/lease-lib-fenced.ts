// GOOD for V310 on --store fs (explored): the lease-file library (lease-lib.ts) after its fix, bound through its public API only: its renewal and release read, check and write through the one open file they checked, so a late write lands on a file a successor's takeover removed; release expires its own record in place and waits for a renewal in flight. Its owner id stays inside the library, as in its bad twin lease-lib-by-path.ts.
import { leaseLibTarget } from './lease-lib-target.ts';

export default leaseLibTarget(
  { fenced: true },
  'lease-file library keeping its owner id to itself ({ ownerId, expiresAt }, created wx); renewal and release through the one open file they checked; release expires its own record',
);
