/**
 * Lands an explored partition or delayed write (./partition.ts) at its boundary: a partition from
 * A's command on the lock (by its position among the part's commands on the key), from another
 * command (by name and occurrence) or from A's write; a delayed write at A's write.
 */
import type { Holder } from '../holder/holder.ts';
import type { WireProxy } from '../wire/proxy.ts';
import type { ExplorePoint } from './explore-point.ts';
import { delayedWriteStop, partitionStop } from './partition.ts';
import type { Stop } from './stops.ts';

export function armCutOff(
  { boundary, fault }: ExplorePoint,
  holder: Holder,
  wire: WireProxy | undefined,
  key: string,
  label: string,
  missed: string,
): Stop {
  if (boundary.kind !== 'command' && boundary.kind !== 'effect')
    throw new Error(`point ${label}: a ${fault} starts at a command or a write, not at a ${boundary.kind}`);
  if (fault === 'delay-write') {
    if (boundary.kind !== 'effect') throw new Error(`point ${label}: only a write can be delayed on its way`);
    return delayedWriteStop(holder, boundary.nth, label, missed);
  }
  if (boundary.kind === 'effect') return partitionStop(holder, wire, { effect: boundary.nth }, label, missed);
  const start =
    boundary.keyNth !== undefined
      ? { command: { naming: key }, nth: boundary.keyNth }
      : { command: { command: boundary.name }, nth: boundary.nth };
  return partitionStop(holder, wire, start, label, missed);
}
