/**
 * Warm holders for a batch of different runs (the reference matrix, selfcheck): one run's holders
 * started ahead (src/run/run-ahead.ts's WarmPool), in the order the batch plays them, each taken by
 * the run whose target and holders it was started for. One run ahead, not one per job: holders
 * loading ahead take CPU from the runs playing, and a ZooKeeper holder starved of it loses its
 * 200 ms session (a throw that is INCONCLUSIVE, src/run/stages/connection-lost.ts, so a crowded run
 * is played again alone by src/run/run-batch.ts, with holders of its own).
 */
import { WarmPool, type HolderNeed } from './run-ahead.ts';
import type { RunRequest } from './stages/run-request.ts';

export interface WarmBatch<T> {
  /** The part of `item`'s run request that takes its warm holders (if started) and starts the next run's. */
  holdersFor(item: T): Promise<Pick<RunRequest, 'prepared' | 'onHoldersReady'>>;
  /** Ends the holders no run took; call when the batch is over, however it ended. */
  close(): Promise<void>;
}

/** A warm pool told every item's need, in the order `items` will play. */
export function warmBatch<T>(items: readonly T[], needOf: (item: T) => HolderNeed): WarmBatch<T> {
  const pool = new WarmPool(1);
  for (const item of items) pool.expect(needOf(item));
  return {
    async holdersFor(item) {
      const prepared = await pool.take(needOf(item));
      return { ...(prepared ? { prepared } : {}), onHoldersReady: () => pool.fill() };
    },
    close: () => pool.close(),
  };
}
