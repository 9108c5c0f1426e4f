/**
 * V310 --variant failover (--topology replicated|sentinel): the master's replication is held across
 * A's acquire, so A's lock lives on the master alone; then the master is SIGKILLed and a replica
 * promoted (scenarios/failover.ts failoverOnceLocked), and B takes the lock on the promoted node
 * while A's lease still lives by the dead master's clock; A, which never knew, releases. Its
 * release reaches the promoted node, where the key is B's: a release without an owner check deletes
 * it. Its precondition is judged by src/judging/failover-loss.ts lostInFailover.
 */
import { LOST_IN_FAILOVER } from '../../src/judging/failover-loss.ts';

export const FAILOVER_PRECONDITION = {
  name: LOST_IN_FAILOVER,
  checks:
    "--variant failover: the master's replication was held across A's acquire, the master held A's key and no replica did when it was SIGKILLed, and a replica was promoted",
};
