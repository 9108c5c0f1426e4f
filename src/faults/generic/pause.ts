/**
 * Pause: A stopped (SIGSTOP) at a write's receipt, its timers and renewals too. Lands at its point
 * itself (`landAt`: ../stops.ts pauseAtLatch). On redlock:N it is A's own stop after its acquire:
 * only a fence from a counter outside the masters closes that window.
 */
import type { PointFault } from '../landing.ts';
import { pauseAtLatch } from '../stops.ts';

export const PAUSE: PointFault = {
  name: 'pause',
  rank: 70,
  words: 'A stopped (SIGSTOP) at its receipt',
  doc: "the write was recorded and A is stopped (SIGSTOP) before its receipt reaches it: the process, its timers and its renewals all stop, where a held receipt leaves A's timers running (a helper that renews on a timer keeps its lease through a held receipt, not through a pause); on redlock:N after its acquire, until its keys lapsed on every master and B took the lock and wrote",
  at: ['effect'],
  topologies: ['single', 'redlock'],
  playedByAStop: true,
  inWords: (boundary, at) =>
    boundary.kind === 'effect'
      ? `A's write "${boundary.name}" (${at}) was recorded and A was stopped (SIGSTOP: its timers and renewals too) before its receipt reached it`
      : `A was stopped (SIGSTOP) at its ${boundary.text} (${at})`,
  // A stopped first, then its receipt sent, to be read when A resumes.
  landAt: (ctx) => pauseAtLatch(ctx.latch(), ctx.holder, ctx.label, ctx.missed),
};
