/**
 * A fault that lands itself (`land`, ./landing.ts) put at an explored point: A is held at the
 * boundary (its command held before it runs, or A blocked at its seam or before its write's
 * receipt), the fault is landed there, and only then is the point reached; letting A go lifts the
 * fault, then the hold. A landing that says it does not apply there (no lease on the key yet, no
 * ping sent) is kept on the stop (`notApplicable`): the oracle records it, and `--explore` leaves
 * the point out (never judged).
 */
import type { LandableFault, Landed, LandingContext } from './landing.ts';
import type { PointContext } from './point.ts';
import type { Stop } from './stops.ts';

export function landAtPoint(fault: LandableFault, at: PointContext, ctx: LandingContext): Stop {
  const held = at.boundary.kind === 'command' ? at.hold('call') : at.latch();
  const free = () => ('isReleased' in held ? held.isReleased : !held.holding && !held.armed);
  let landed: Landed | undefined;
  let notApplicable: string | undefined;
  let letGo = false;
  const reached = held.reached.then(async (hit) => {
    const landing = await fault.land(ctx);
    if (!landing.reached) notApplicable = landing.why;
    // Let go while it was landing (the oracle stopped waiting): lifted at once, never left in force.
    else if (letGo) landing.lift();
    else landed = landing;
    return hit;
  });
  reached.catch(() => undefined); // awaited by the oracle; a cancelled hold rejects it
  return {
    what: at.label,
    missed: at.missed,
    reached,
    release: () => {
      letGo = true;
      landed?.lift();
      held.release();
    },
    get isReleased() {
      return free();
    },
    get notApplicable() {
      return notApplicable;
    },
  };
}
