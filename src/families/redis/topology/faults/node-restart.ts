/**
 * A master of A's bare majority restarted empty (--topology redlock:N); played by the quorum flow,
 * scenarios/redlock-quorum.ts (scenarios/fault-flows.ts finds it by this fault's name).
 */
import type { Fault } from '../../../../core/fault.ts';

export const NODE_RESTART: Fault = {
  name: 'node-restart',
  rank: 160,
  words: 'a master of its majority restarted empty there',
  doc: "A cut off from a minority of the masters across its acquire, so its lock lives on a bare majority; A held at the write (recorded, its receipt withheld); the last master of that majority restarted without persistence (SHUTDOWN NOSAVE, started again at once, empty); B tries for the lock inside A's lease; then A goes on",
  at: ['effect'],
  topologies: ['redlock'],
  inWords: (boundary, at) =>
    `A, cut off from a minority of the masters across its acquire, won its lock on a bare majority; with A held at its write "${boundary.name}" (${at}: the write recorded, its receipt withheld) the last master of that majority was restarted without persistence (SHUTDOWN NOSAVE, started again at once, empty), and B tried for the lock inside A's lease`,
};
