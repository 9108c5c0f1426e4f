/** A reference run: a target an oracle must FAIL (bad) or PASS (good) on, with its parameters. */
import type { StoreKind } from '../stores/types.ts';

export interface ReferenceRun {
  target: string;
  expect: 'PASS' | 'FAIL';
  params?: Record<string, string | number>;
  /** Which store to run it on, when not the oracle's first. */
  store?: StoreKind;
  /** Several nodes to run it on (--topology replicated:2, sentinel, redlock:5), when not one server. */
  topology?: string;
  /**
   * A bad target this schedule misses (so it PASSes here): why, in a sentence. Such a reference
   * records today's honest verdict; `list` counts the target as bad, and a search over more
   * schedules must FAIL it.
   */
  knownBad?: string;
  /**
   * A bad target --explore does not reach (its fault is not an explored point yet, or its store is
   * not explored): why, in a sentence. The explored references leave it out; its plain run stays in
   * the matrix.
   */
  notExplored?: string;
  /**
   * The parameters --explore runs this bad target with, when its job needs a shape of its own to
   * reach the part explored (never a variant: the cluster lock's job renews its delegation only with
   * a longer step). Absent: the oracle's defaults.
   */
  exploredWith?: Record<string, string | number>;
}
