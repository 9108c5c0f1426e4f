/**
 * How the explored references are split between `npm test` and `.ci/run`, as the reference matrix's
 * Valkey twins are (test/reference-split.ts): `npm test` explores, for each explorable oracle, its
 * first bad and its first good reference on the oracle's own store with no --topology
 * (test/explore-oracles.test.ts): --explore still finds a failing schedule with no variant, and
 * still passes a safe helper, for every oracle, on every change. Every other explored reference —
 * the other stores, topologies and libraries, each of which must settle too — runs in
 * `npm run test:explore` (test/explored/, one file per oracle), which `.ci/run` runs after `npm test`.
 * Those were half of `npm test`'s test-seconds (docs/benchmarks.md); every one still runs in CI, and
 * each reference's own verdict runs in `npm test`'s matrix either way.
 */
import type { ReferenceRun } from '../src/oracle/reference-run.ts';

/** The suite an explored reference runs in. */
export type ExploredIn = 'npm test' | 'test:explore';

/** For each of `references` (exploreReferences of the oracle), the suite it is explored in. */
export function exploredIn(oracle: { stores: readonly string[] }, references: readonly ReferenceRun[]): ExploredIn[] {
  const onOwnStore = (r: ReferenceRun) => (r.store ?? oracle.stores[0]) === oracle.stores[0] && !r.topology;
  const firstBad = references.findIndex((r) => r.expect === 'FAIL' && onOwnStore(r));
  const firstGood = references.findIndex((r) => r.expect === 'PASS' && onOwnStore(r));
  return references.map((_r, index) => (index === firstBad || index === firstGood ? 'npm test' : 'test:explore'));
}
