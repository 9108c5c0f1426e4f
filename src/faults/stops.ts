/**
 * One vocabulary for "stop a holder somewhere, then let it go", whatever stops it: a command held
 * at its wire proxy (before it, or its reply), a latch it blocks on (a seam, an effect), a SIGSTOP,
 * or a latch then a SIGSTOP. Oracles and explored points use this one interface; each factory
 * builds one kind of stop from the mechanism that lands it.
 */
import type { Holder } from '../holder/holder.ts';
import type { Latch } from '../holder/latch.ts';
import type { WireHold } from '../wire/hold.ts';
import type { Stop } from '../families/fault-landing.ts';

export type { Stop } from '../families/fault-landing.ts';

/** What a hold at a boundary offers: a command at the wire proxy, a filesystem call, a message on a cluster link. */
export interface BoundaryHold {
  readonly reached: Promise<unknown>;
  release(): void;
  /** It holds what it caught. */
  readonly holding: boolean;
  /** It waits for what it is to catch. */
  readonly armed: boolean;
}

/**
 * What a boundary hold caught, held until released: a command (or its reply) at the holder's wire
 * proxy, a filesystem call (before it runs, or its result: --store fs), a message on a cluster's
 * node-to-node link at the harness's link proxy (--store cluster).
 */
export function heldStop(hold: BoundaryHold, what: string, missed: string): Stop {
  return {
    what,
    missed,
    reached: hold.reached,
    release: () => hold.release(),
    get isReleased() {
      return !hold.holding && !hold.armed;
    },
  };
}

/**
 * A command's reply held at the holder's wire proxy; let go, the connection it is on is dropped
 * (reset) with the reply in it instead of delivering it, so the holder's client handles a lost
 * reply its own way (a re-send on reconnect, an error).
 */
export function droppedReplyStop(
  hold: WireHold,
  drop: (connection: number) => void,
  what: string,
  missed: string,
): Stop {
  let connection: number | undefined;
  const reached = hold.reached.then((held) => {
    connection = held.connection;
    return held;
  });
  reached.catch(() => undefined); // awaited by the oracle; a cancelled hold rejects it
  return {
    what,
    missed,
    reached,
    release: () => {
      if (hold.holding && connection !== undefined) drop(connection);
      else hold.release();
    },
    get isReleased() {
      return !hold.holding && !hold.armed;
    },
  };
}

/** A latch the holder blocks on (a seam, an effect) until released. */
export function latchStop(latch: Latch, what: string, missed: string): Stop {
  return {
    what,
    missed,
    reached: latch.reached,
    release: () => latch.release(),
    get isReleased() {
      return latch.isReleased;
    },
  };
}

/**
 * The holder reaches a latch, is stopped there (SIGSTOP), and only then is the latch let go (its
 * receipt is sent, to be read when the holder resumes): a pause at that exact point.
 */
export function pauseAtLatch(latch: Latch, holder: Holder, what: string, missed: string): Stop {
  return {
    what,
    missed,
    reached: latch.reached.then(async (hit) => {
      await holder.pause();
      latch.release();
      return hit;
    }),
    release: () => {
      holder.resume();
      latch.release();
    },
    get isReleased() {
      return latch.isReleased && !holder.isPaused;
    },
  };
}
