/**
 * Where a point's fault lands: A's boundary found again in a new run (its command by its position
 * among the part's commands on the lock key or by name and occurrence, its filesystem call, its
 * seam, its write), offered to the fault as the holds and latches that catch A exactly there. A
 * fault that lands at a point (`PointFault.landAt`, ./landing.ts) takes what it needs from this and
 * builds its stop; the finding is done once, here, for every fault.
 */
import type { Boundary } from '../core/fault.ts';
import { fsBoundariesOf, onLockPath } from '../holder/fs-boundaries.ts';
import type { FsOp } from '../holder/fs-protocol.ts';
import type { Holder } from '../holder/holder.ts';
import type { Latch } from '../holder/latch.ts';
import type { CommandPattern } from '../wire/command.ts';
import type { WireHold } from '../wire/hold.ts';
import type { WireProxy } from '../wire/proxy.ts';
import type { PartitionStart } from './cut-off.ts';
import type { BoundaryHold } from './stops.ts';

/** What a fault landing at a point of A's run is offered. */
export interface PointContext {
  readonly boundary: Boundary;
  /** The holder it lands on (A, or the contender the point names). */
  readonly holder: Holder;
  /** The holder's wire proxy, when it talks to the store through one. */
  readonly wire: WireProxy | undefined;
  /** The point in words, for progress lines and the evidence ("job#2 EVALSHA, its reply held"). */
  readonly label: string;
  /** Why the point was never reached, when the holder's part finished first. */
  readonly missed: string;
  /** The boundary's command (at the wire proxy) or filesystem call, held before it runs (`call`) or on its reply (`result`). */
  hold(on: 'call' | 'result'): BoundaryHold;
  /** The boundary's command held at the wire proxy (a command boundary only): a hold that knows its connection. */
  wireHold(on: 'call' | 'result'): WireHold;
  /** The latch the holder blocks on at the boundary's seam, or before its write's receipt. */
  latch(): Latch;
  /** A cut-off beginning at the boundary: its command, or its write. */
  cutFrom(): PartitionStart;
  /** The reply to the command on the lock key before this one, held at the wire (clock steps land there); 0: none before it. */
  previousOnKey(): { nth: number; hold(): WireHold };
}

export function pointContext(
  boundary: Boundary,
  holder: Holder,
  wire: WireProxy | undefined,
  key: string,
  label: string,
  missed: string,
): PointContext {
  const byKey = boundary.keyNth !== undefined;
  const needWire = (what: string): WireProxy => {
    if (!wire) throw new Error(`point ${label}: ${what} needs the holder behind its wire proxy`);
    return wire;
  };
  const commandAt = (): { pattern: CommandPattern; nth: number } => {
    if (boundary.kind !== 'command')
      throw new Error(`point ${label}: the fault holds a command, and this boundary is a ${boundary.kind}`);
    return byKey
      ? { pattern: { naming: key }, nth: boundary.keyNth! }
      : { pattern: { command: boundary.name }, nth: boundary.nth };
  };
  const wireHold = (on: 'call' | 'result'): WireHold => {
    const { pattern, nth } = commandAt();
    const proxy = needWire('a command boundary');
    return on === 'call' ? proxy.hold(pattern, { nth }) : proxy.holdReply(pattern, { nth });
  };
  return {
    boundary,
    holder,
    wire,
    label,
    missed,
    wireHold,
    hold(on) {
      if (boundary.kind !== 'fs') return wireHold(on);
      const boundaries = fsBoundariesOf(holder);
      if (!boundaries) throw new Error(`point ${label}: a filesystem boundary needs A on a file store (--store fs)`);
      const match = byKey ? { path: (path: string) => onLockPath(path, key) } : { op: boundary.name as FsOp };
      return boundaries.hold(match, { nth: byKey ? boundary.keyNth! : boundary.nth, on });
    },
    latch() {
      if (boundary.kind === 'seam') return holder.holdSeam(boundary.name);
      if (boundary.kind === 'effect') return holder.holdEffect(boundary.nth);
      throw new Error(`point ${label}: a holder blocks at a seam or a write, not at a ${boundary.kind}`);
    },
    cutFrom() {
      if (boundary.kind === 'effect') return { effect: boundary.nth };
      const { pattern, nth } = commandAt();
      return { command: pattern, nth };
    },
    previousOnKey() {
      const nth = (boundary.keyNth ?? 1) - 1;
      return { nth, hold: () => needWire('a clock step after a reply').holdReply({ naming: key }, { nth }) };
    },
  };
}
