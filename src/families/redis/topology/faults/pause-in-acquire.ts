/**
 * A stopped inside its multi-master acquire, every master's reply in flight (--topology redlock:N);
 * played by the pause-in-acquire flow, scenarios/redlock-pause-in-acquire.ts
 * (scenarios/fault-flows.ts finds it by this fault's name).
 */
import type { Fault } from '../../../../core/fault.ts';

export const PAUSE_IN_ACQUIRE: Fault = {
  name: 'pause-in-acquire',
  rank: 80,
  words: "A stopped (SIGSTOP) with every master's reply to its acquire in flight",
  doc: "at A's first command on the lock key (its acquire's request to the first master): every master's reply to the acquire kept at A's link to it until each had answered; A stopped (SIGSTOP) and the replies delivered into its stopped sockets; A kept stopped until its keys lapsed and B took the lock and wrote; then A resumes and its acquire returns a quorum whose validity is spent",
  at: ['command'],
  topologies: ['redlock'],
  firstOnKeyOnly: true,
  inWords: (_, at) =>
    `every master's reply to A's acquire (from its first request on the lock key, ${at}) was kept at A's own link to it until each master had answered; A was stopped (SIGSTOP), the replies delivered into its stopped sockets, and A kept stopped until its keys lapsed and B took the lock and wrote`,
};
