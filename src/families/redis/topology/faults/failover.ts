/**
 * Failover (a master and replicas: --topology replicated|sentinel); the flow that plays it is V313's failover flow and scenarios/failover.ts.
 */
import type { Fault } from '../../../../core/fault.ts';

export const FAILOVER: Fault = {
  name: 'failover',
  rank: 170,
  words: 'the master failed over there',
  doc: "the master's replication held across A's job; A stopped at the boundary (a command run on the master with its reply withheld, a write recorded with its receipt withheld); the master SIGKILLed and a replica promoted (REPLICAOF NO ONE, or the Sentinels); A's store traffic held at its proxy until B took the lock on the promoted node and wrote; then A goes on",
  at: ['command', 'effect'],
  topologies: ['replicated', 'sentinel'],
  alsoCommands: ['WAIT', 'WAITAOF'],
};
