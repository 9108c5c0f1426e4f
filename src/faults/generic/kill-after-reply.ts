/**
 * SIGKILL after the reply: A killed once the reply reached its proxy, before it can send anything
 * else. Lands at its point itself (`landAt`) as the reply held there; the oracle's flow kills A once it is reached.
 */
import type { PointFault } from '../landing.ts';
import { heldStop } from '../stops.ts';

export const KILL_AFTER_REPLY: PointFault = {
  name: 'kill-after-reply',
  rank: 140,
  words: 'SIGKILL after its reply',
  doc: "A is SIGKILLed once the reply (or the filesystem call's result) reached its proxy, before it can send anything else",
  at: ['command', 'fs'],
  topologies: ['single'],
  inWords: (boundary, at) =>
    boundary.kind === 'fs'
      ? `A was killed (SIGKILL) once its ${boundary.text} (${at}) had run, before its result reached A`
      : `A was killed (SIGKILL) the moment the reply to its ${boundary.text} (${at}) reached its wire proxy, before A could send anything else`,
  landAt: (ctx) => heldStop(ctx.hold('result'), ctx.label, ctx.missed),
};
