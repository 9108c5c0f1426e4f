/**
 * A master of A's bare majority with its wall clock stepped ahead past the TTL (--topology
 * redlock:N); played by the quorum flow,
 * scenarios/redlock-quorum.ts (scenarios/fault-flows.ts finds it by this fault's name).
 */
import type { Fault } from '../../../../core/fault.ts';

export const MASTER_CLOCK_AHEAD: Fault = {
  name: 'master-clock-ahead',
  rank: 150,
  words: 'a master of its majority had its clock stepped ahead there',
  doc: "the same bare majority, A held at the write; the last master of that majority has its wall clock stepped 1.25 × --ttl ahead (the clock-offset library), so A's key there expires at once; B tries for the lock inside A's lease; then A goes on",
  at: ['effect'],
  topologies: ['redlock'],
  inWords: (boundary, at) =>
    `A, cut off from a minority of the masters across its acquire, won its lock on a bare majority; with A held at its write "${boundary.name}" (${at}: the write recorded, its receipt withheld) the last master of that majority was given a wall clock stepped ahead past the TTL, and B tried for the lock inside A's lease`,
};
