/**
 * The timeline's time axis: harness ms → x. A run made of parts (`Scenario.phase`, e.g. a solo
 * calibration run before the scenario proper) gets one panel per part, side by side with a gap,
 * each on its own scale, so a short part stays readable and the parts are not read as one.
 */
import type { EvidenceRecord } from './evidence.ts';

export interface Panel {
  /** The part's name and words (`Scenario.phase`); absent for a run in one part. */
  name?: string;
  text?: string;
  from: number;
  to: number;
  x0: number;
  x1: number;
}

export interface TimeScale {
  panels: Panel[];
  x(t: number): number;
}

const GAP = 28;
/** A part never gets less than this share of the width, however short it was. */
const MIN_SHARE = 0.25;

export function timeScale(record: EvidenceRecord, left: number, right: number): TimeScale {
  // The picture starts where the scenario does (holder processes loading the target come first).
  const scenarioEvents = record.history.filter((e) => e.kind !== 'holder-ready');
  const phases = record.history.filter((e) => e.kind === 'note' && typeof e.detail.phase === 'string');
  const start = Math.max(0, Math.min(...scenarioEvents.map((e) => e.t), ...record.faults.map((f) => f.appliedAt)) - 10);
  const end = Math.max(
    start + 1,
    ...record.history.map((e) => e.t),
    ...record.faults.map((f) => f.liftedAt ?? f.appliedAt),
  );
  // Before the first part: setting up (connections, holders loading), not drawn.
  const bounds = phases.length
    ? phases.map((p, i) => ({ phase: p, from: i === 0 ? p.t - 5 : p.t }))
    : [{ phase: undefined, from: start }];
  const spans = bounds.map((b, i) => ({ ...b, to: Math.max(b.from + 1, bounds[i + 1]?.from ?? end) }));
  const total = spans.reduce((sum, s) => sum + (s.to - s.from), 0);
  const raw = spans.map((s) => Math.max(MIN_SHARE, (s.to - s.from) / total));
  const shares = raw.map((r) => r / raw.reduce((a, b) => a + b, 0));
  const usable = right - left - GAP * (spans.length - 1);
  let x0 = left;
  const panels: Panel[] = spans.map((s, i) => {
    const width = usable * shares[i]!;
    const panel: Panel = {
      ...(s.phase
        ? { name: String(s.phase.detail.phase), text: String(s.phase.detail.text ?? s.phase.detail.phase) }
        : {}),
      from: s.from,
      to: s.to,
      x0,
      x1: x0 + width,
    };
    x0 += width + GAP;
    return panel;
  });
  const x = (t: number): number => {
    const panel = [...panels].reverse().find((p) => t >= p.from) ?? panels[0]!;
    const clamped = Math.min(Math.max(t, panel.from), panel.to);
    return round(panel.x0 + ((clamped - panel.from) / (panel.to - panel.from)) * (panel.x1 - panel.x0));
  };
  return { panels, x };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
