/**
 * How node-clock-ahead and node-clock-back land at a link message: the message is held at its link
 * proxy, the node the oracle names has its wall clock stepped by the oracle's size in the fault's
 * direction (an NTP step; its monotonic clock untouched), and the message goes on. The stop is
 * reached once the step is in force; released before that, the hold is disarmed and nothing stepped.
 */
import type { Stop } from '../../fault-landing.ts';
import { stopAtMessage, type MessageContext } from './at-message.ts';

export function stepNodeClockAt(ctx: MessageContext, name: string, sign: 1 | -1): Stop {
  const step = ctx.clockStep;
  if (!step)
    throw new Error(
      `point ${ctx.label}: ${name} steps a node's wall clock, and the oracle named no node and no size (its moment passes clockStep)`,
    );
  const link = ctx.boundary.link;
  const missed = `A's ${ctx.boundary.part} ended without the ${ctx.boundary.name} #${link?.nth ?? '?'} from ${link?.from ?? '?'} to ${link?.to ?? '?'} (seen there when A ran alone): A took another path, so ${step.node}'s clock was never stepped there`;
  return stopAtMessage({ ...ctx, missed }, name, (hold) => {
    try {
      ctx.nodes.clock(step.node).step({ wallMs: sign * step.ms });
    } finally {
      hold.release();
    }
  });
}
