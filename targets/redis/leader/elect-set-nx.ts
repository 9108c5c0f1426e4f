// GOOD for V315 with --contenders 3 (ORACLES.md row V315): elect-get-then-set.ts's twin, electing in one step (SET key token PX ttl NX): of candidates that race for a free key, one wins and the others are refused, so a leader acting on its lease until its own clock says it ends is alone.
import { leaseLeader } from './lease-leader.ts';

export default leaseLeader({ atomicElection: true });
