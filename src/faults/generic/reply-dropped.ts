/**
 * Reply dropped: the command ran, its reply is held, then A's connection is dropped with it. Lands
 * at its point itself (`landAt`: ../stops.ts droppedReplyStop).
 */
import type { PointFault } from '../landing.ts';
import { droppedReplyStop } from '../stops.ts';

export const REPLY_DROPPED: PointFault = {
  name: 'reply-dropped',
  rank: 40,
  words: 'its reply dropped with its connection',
  doc: "the command ran, its reply is kept from A until the other holder has acted, then A's connection is dropped with the reply in it (never delivered), so A's client does what it does when a reply is lost (ioredis reconnects and re-sends it, by default)",
  at: ['command'],
  topologies: ['single'],
  inWords: (boundary, at) =>
    `A's ${boundary.text} (${at}) ran in the store; its reply was held from A at its wire proxy, then dropped with A's connection (reset), never delivered`,
  landAt(ctx) {
    const wire = ctx.wire;
    if (!wire) throw new Error(`point ${ctx.label}: a reply is dropped at A's wire proxy, and A has none`);
    const drop = (connection: number) =>
      wire.dropConnection(connection, `its held reply to ${ctx.boundary.text} discarded`);
    return droppedReplyStop(ctx.wireHold('result'), drop, ctx.label, ctx.missed);
  },
};
