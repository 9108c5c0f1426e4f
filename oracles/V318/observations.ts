/** What V318's play records for its judge: the two writers' values, their clocks, and each call as it returned. */
import type { CallOutcome } from '../../src/holder/holder.ts';

export interface V318Observations {
  /** The value each writer writes: A's, then (later in real order) B's. */
  values: { a: string; b: string };
  /** Each writer's clock offset as its holder reported it before and after the writes (ms). */
  offsets: { aBefore: number; bBefore: number; aAfter: number; bAfter: number };
  /** A's write, A's read-back, B's write, and the final read, in that real order. */
  aWrite: CallOutcome;
  afterA: CallOutcome;
  bWrite: CallOutcome;
  final: CallOutcome;
}
