/**
 * How the reference matrix is split between `npm test` and `.ci/run`: every reference runs on its
 * own store in `npm test` (test/reference-targets.test.ts); the Valkey twin of each Redis reference
 * (the same target, oracle and params on valkey-server, which must give Redis's verdict) runs in
 * `npm run test:valkey` (test/valkey/), which `.ci/run` runs after `npm test`. The twins were a
 * third of the matrix's run time and check the store's parity, not the reference: the Redis run
 * already proves the reference's verdict, and the local Valkey recipe has its own tests.
 */
import type { MatrixEntry } from '../src/run/reference-matrix.ts';

/** A Redis reference played once more on Valkey (the matrix adds one for every Redis reference). */
export function isValkeyTwin(entry: MatrixEntry): boolean {
  return entry.store === 'valkey' && (entry.reference.store ?? entry.oracle.stores[0]) === 'redis';
}
