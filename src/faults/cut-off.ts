/**
 * Two faults that cut a holder off from where its actions land, as Stops (./stops.ts):
 * - a partition from boundary k on: from the holder's command k (held at its wire proxy) or its
 *   effect k (held on its way to the resource) on, everything it sends and receives — every store
 *   connection, both directions, and every effect — waits; released, it is all delivered in the
 *   order sent. The process keeps running (its timers, its renewals), but nothing it does reaches
 *   the store or the resource, so a helper that renews on its own timer loses its lease.
 * - a delayed write: only effect k is held on its way to the resource (sent while the holder held
 *   its lock), and delivered when released; the holder's store traffic flows meanwhile.
 */
import type { Holder } from '../holder/holder.ts';
import type { WireFaultHandle, WireProxy } from '../wire/proxy.ts';
import type { CommandPattern } from '../wire/command.ts';
import type { Stop } from './stops.ts';

/** Where a partition begins: the holder's nth command matching `pattern`, or its nth effect from now. */
export type PartitionStart = { command: CommandPattern | readonly CommandPattern[]; nth: number } | { effect: number };

/** Everything the holder sends and receives held from `start` on, until released. */
export function partitionStop(
  holder: Holder,
  wire: WireProxy | undefined,
  start: PartitionStart,
  what: string,
  missed: string,
): Stop {
  if (!wire) throw new Error(`${what}: a partition needs the holder behind its wire proxy`);
  let cut: { blackhole: WireFaultHandle; release: () => void } | undefined;
  let released = false;
  const cutOff = (releaseEffects: () => void) => {
    const blackhole = wire.blackhole();
    cut = { blackhole, release: releaseEffects };
    if (released) lift();
  };
  const lift = () => {
    cut?.release();
    cut?.blackhole.lift();
  };
  let reached: Promise<unknown>;
  let disarm: () => void;
  if ('effect' in start) {
    const gate = holder.gateEffects({ nth: start.effect, scope: 'from' });
    reached = gate.reached.then((hit) => (cutOff(() => gate.release()), hit));
    disarm = () => gate.release();
  } else {
    const hold = wire.hold(start.command, { nth: start.nth });
    reached = hold.reached.then((held) => {
      // Effects first, then the wire, then the command itself: it waits behind the blackhole.
      const gate = holder.gateEffects({ nth: 1, scope: 'from' });
      cutOff(() => gate.release());
      hold.release();
      return held;
    });
    disarm = () => hold.release();
  }
  reached.catch(() => undefined); // a disarmed hold rejects; the scenario sees "missed" instead
  return {
    what,
    missed,
    reached,
    release: () => {
      released = true;
      disarm();
      lift();
    },
    get isReleased() {
      return released;
    },
  };
}

/** The holder's `nth` effect from now held on its way to the resource, delivered when released. */
export function delayedWriteStop(holder: Holder, nth: number, what: string, missed: string): Stop {
  const gate = holder.gateEffects({ nth, scope: 'one' });
  return {
    what,
    missed,
    reached: gate.reached,
    release: () => gate.release(),
    get isReleased() {
      return gate.isReleased;
    },
  };
}
