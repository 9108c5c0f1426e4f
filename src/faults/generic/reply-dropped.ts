/**
 * Reply dropped: the command ran, its reply is held, then A's connection is dropped with it; landed
 * by src/oracle/arm-point.ts (src/oracle/stops.ts droppedReplyStop).
 */
import type { Fault } from '../../core/fault.ts';

export const REPLY_DROPPED: Fault = {
  name: 'reply-dropped',
  rank: 40,
  words: 'its reply dropped with its connection',
  doc: "the command ran, its reply is kept from A until the other holder has acted, then A's connection is dropped with the reply in it (never delivered), so A's client does what it does when a reply is lost (ioredis reconnects and re-sends it, by default)",
  at: ['command'],
  topologies: ['single'],
  inWords: (boundary, at) =>
    `A's ${boundary.text} (${at}) ran in the store; its reply was held from A at its wire proxy, then dropped with A's connection (reset), never delivered`,
};
