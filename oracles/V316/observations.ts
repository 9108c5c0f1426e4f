/**
 * What V316's play records for its judge: each holder's guarded operation (when it began and
 * returned, by the harness's clock and by the holder's own) and how far its wall clock was stepped.
 * The clock steps are in the history (`clock-step`), the firings in the effects (`timeout`).
 */

/** The holders V316 runs: A has its clock stepped back, B forward. */
export type LegHolder = 'A' | 'B';

export interface V316Leg {
  holder: LegHolder;
  /** How far its wall clock was stepped (ms; negative: back). */
  deltaMs: number;
  /** When the harness started its guarded operation (harness ms). */
  startedAt: number;
  /** When the operation returned (harness ms), or null: still running when play stopped watching. */
  endedAt: number | null;
  /** When the call began and ended by the holder's own monotonic clock, once it returned (when the holder says). */
  span: { began: number; ended: number } | null;
}

export interface V316Observations {
  legs: V316Leg[];
  /** When play stopped watching (harness ms): a firing or a step recorded later is not judged. */
  watchedUntil: number;
}
