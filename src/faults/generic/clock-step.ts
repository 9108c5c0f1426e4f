/**
 * How clock-ahead and clock-back land at their point: A's wall clock steps by `deltaMs` right
 * before A prepares the boundary's command — at once for A's first command on the lock (arm it
 * just before A's part begins), else the moment the reply to its previous command on the lock
 * reaches A's proxy, held there until the step is in force. A's clock must already be installed;
 * await this before starting A's part (for the first command the step is in force when it resolves).
 */
import type { PointContext } from '../point.ts';

/** A clock point in force: `landed` says whether A's clock was stepped before A prepared the command. */
export interface ClockStep {
  /** Resolves true once A's clock is stepped; false if A's part ended first (see `settle`). */
  landed: Promise<boolean>;
  /** Call when A's part ended: a step still waiting is cancelled. */
  settle(): void;
  missed: string;
}

export async function stepClockAt(ctx: PointContext, deltaMs: number): Promise<ClockStep> {
  const missed = ctx.missed;
  const step = () => ctx.holder.clock({ op: 'step', deltaMs }).then(() => true);
  const previous = ctx.previousOnKey();
  if (previous.nth === 0) return { landed: Promise.resolve(await step()), settle: () => undefined, missed };
  const hold = previous.hold();
  let settled!: (value: boolean) => void;
  const ended = new Promise<boolean>((resolve) => (settled = resolve));
  const landed = Promise.race([
    hold.reached.then(
      async () => step().finally(() => hold.release()),
      () => false,
    ),
    ended,
  ]);
  return {
    landed,
    settle: () => {
      settled(false);
      hold.release();
    },
    missed,
  };
}
