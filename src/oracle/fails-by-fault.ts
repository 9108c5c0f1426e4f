/**
 * An exploration's failing points counted by fault kind, so a reviewer sees at once which kinds of
 * fault break the target ("partition: 4 of 6 points FAIL") and not only the minimal schedule.
 * Points left out as not applicable are not counted.
 */
import type { ExploredPoint, FaultTally } from './explore-point.ts';
import { FAULT_ORDER } from '../faults/registry.ts';

/** One tally per fault kind among the judged points, smallest fault first. */
export function tallyByFault(points: readonly ExploredPoint[]): FaultTally[] {
  const judged = points.filter((p) => p.notApplicable === undefined);
  return FAULT_ORDER.filter((fault) => judged.some((p) => p.fault === fault)).map((fault) => {
    const ofFault = judged.filter((p) => p.fault === fault);
    return { fault, ran: ofFault.length, failed: ofFault.filter((p) => p.verdict === 'FAIL').map((p) => p.label) };
  });
}

/** "Failing points by fault: partition 4 of 6, pause 0 of 6, hold-before 0 of 3." (failing kinds first). */
export function tallySentence(tallies: readonly FaultTally[]): string {
  const ordered = [...tallies].sort((a, b) => Number(b.failed.length > 0) - Number(a.failed.length > 0));
  return `Failing points by fault: ${ordered.map((t) => `${t.fault} ${t.failed.length} of ${t.ran}`).join(', ')}.`;
}
