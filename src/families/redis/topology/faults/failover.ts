/**
 * Failover (a master and replicas: --topology replicated|sentinel); the flow that plays it is
 * scenarios/failover-flow.ts (scenarios/fault-flows.ts finds it by this fault's name), its steps
 * scenarios/failover.ts.
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
  inWords: (boundary, at) =>
    `the master's replication was held across A's job; with A at ${boundary.kind === 'effect' ? `its write "${boundary.name}"` : boundary.text} (${at}: ${boundary.kind === 'effect' ? 'the write recorded, its receipt withheld' : 'the command ran on the master, its reply withheld'}) the master was SIGKILLed and a replica promoted, A's store traffic held until B had taken the lock there and written`,
};
