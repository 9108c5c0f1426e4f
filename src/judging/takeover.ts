/**
 * The judgement V313 and V315 share: after the taker's first write (in the resource's arrival
 * order, never the holders' clocks), did the stale holder get any write accepted?
 */
import type { EffectRecord } from '../core/resource.ts';

export interface Takeover {
  /** The taker's first write, if it wrote at all. */
  takerFirst: EffectRecord | undefined;
  /** The stale holder's writes that arrived after it, accepted or not. */
  staleAfter: EffectRecord[];
  /** Of those, the ones the resource accepted: the violation. */
  staleAcceptedAfter: EffectRecord[];
  /** From the taker's first write to the stale holder's last accepted one (ms, harness clock). */
  overlapMs: number;
}

export function writesAfterTakeover(effects: readonly EffectRecord[], stale: string, taker: string): Takeover {
  const takerFirst = effects.find((e) => e.holder === taker);
  const staleAfter = takerFirst ? effects.filter((e) => e.holder === stale && e.seq > takerFirst.seq) : [];
  const staleAcceptedAfter = staleAfter.filter((e) => e.accepted);
  const last = staleAcceptedAfter.at(-1);
  const overlapMs = takerFirst && last ? Math.round(Math.max(0, last.t - takerFirst.t) * 1000) / 1000 : 0;
  return { takerFirst, staleAfter, staleAcceptedAfter, overlapMs };
}

/** The property's detail line, in the same words for every oracle judged this way. */
export function takeoverDetail(t: Takeover, actors: 'holders' | 'leaders'): string {
  if (t.staleAcceptedAfter.length === 0) {
    return t.staleAfter.length
      ? `A tried ${t.staleAfter.length} write(s) after B's first and the resource rejected every one (stale fencing token)`
      : "A made no write after B's first";
  }
  return `A made ${t.staleAcceptedAfter.length} accepted write(s) after B's first write (resource #${t.takerFirst?.seq}): two ${actors} acted at once for ${t.overlapMs.toFixed(1)} ms`;
}

/** The overlap as an interval (taker's first write to the stale holder's last accepted one), when there was one. */
export function takeoverWindow(
  t: Takeover,
  actors: 'holders' | 'leaders',
): { window?: { from: number; to: number; what: string } } {
  const last = t.staleAcceptedAfter.at(-1);
  if (!t.takerFirst || !last) return {};
  return {
    window: {
      from: t.takerFirst.t,
      to: last.t,
      what: `two ${actors} acted at once: B's first write (#${t.takerFirst.seq}) to A's last accepted write (#${last.seq})`,
    },
  };
}

/** The counts a takeover is judged on, under the same names in every oracle's evidence. */
export function takeoverCounts(t: Takeover, effects: readonly EffectRecord[]): Record<string, number> {
  return {
    aWrites: effects.filter((e) => e.holder === 'A').length,
    bWrites: effects.filter((e) => e.holder === 'B').length,
    aWritesAfterBFirstWrite: t.staleAfter.length,
    aWritesAcceptedAfterBFirstWrite: t.staleAcceptedAfter.length,
    aWritesRejectedByFence: t.staleAfter.length - t.staleAcceptedAfter.length,
    overlapMs: t.overlapMs,
  };
}
