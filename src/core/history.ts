/**
 * The run's history: every event with the harness's monotonic time (ms since the run began) and
 * the holder it concerns. Ordering truth for effects comes from the resource, not from here.
 */

export type EventKind =
  | 'holder-ready'
  | 'acquire-ok'
  | 'acquire-denied'
  | 'release'
  | 'extend-ok'
  | 'extend-failed'
  | 'call-start'
  | 'call-end'
  | 'call-error'
  | 'effect-accepted'
  | 'effect-rejected'
  | 'fault-applied'
  | 'fault-lifted'
  | 'latch-reached'
  | 'latch-released'
  | 'store-observed'
  | 'clock-step'
  | 'holder-exit'
  | 'log'
  | 'note'
  /** A holder's wire proxy: a connection opened/closed, or a command a wire fault stopped or slowed. */
  | 'wire'
  /** A holder's filesystem call under a file store's directory, or its result (src/holder/fs-boundaries.ts). */
  | 'fs'
  /** A message on a node-to-node link of a cluster the harness started (src/wire/link-mesh.ts). */
  | 'link';

export interface HistoryEvent {
  /** Position in the history (1, 2, ...). */
  i: number;
  /** Harness monotonic time, ms since the run began. */
  t: number;
  kind: EventKind;
  holder?: string;
  detail: Record<string, unknown>;
}

export class History {
  readonly #events: HistoryEvent[] = [];
  readonly #origin = performance.now();

  /** Milliseconds since the run began, on the harness's monotonic clock. */
  now(): number {
    return Math.round((performance.now() - this.#origin) * 1000) / 1000;
  }

  add(kind: EventKind, holder: string | undefined, detail: Record<string, unknown> = {}): HistoryEvent {
    const event: HistoryEvent = {
      i: this.#events.length + 1,
      t: this.now(),
      kind,
      ...(holder ? { holder } : {}),
      detail,
    };
    this.#events.push(event);
    return event;
  }

  events(): readonly HistoryEvent[] {
    return this.#events;
  }

  find(predicate: (event: HistoryEvent) => boolean): HistoryEvent | undefined {
    return this.#events.find(predicate);
  }

  filter(predicate: (event: HistoryEvent) => boolean): HistoryEvent[] {
    return this.#events.filter(predicate);
  }
}
