/**
 * The reference matrix: every reference run of every oracle, on the store it names, plus every
 * Redis reference once more on Valkey when the oracle runs there (Valkey must give Redis's
 * verdicts: same protocol, same commands, same reference targets).
 */
import type { OracleDefinition } from '../oracle/definition.ts';
import type { ReferenceRun } from '../oracle/reference-run.ts';
import type { ParamSpecs } from '../core/params.ts';
import type { StoreKind } from '../stores/types.ts';

export interface MatrixEntry {
  oracle: OracleDefinition<ParamSpecs>;
  reference: ReferenceRun;
  /** The store this entry runs on (the reference's, or the oracle's first). */
  store: StoreKind;
  /** e.g. "bad targets/redis/ioredis/release-bare-del.ts {} on valkey". */
  name: string;
}

export function referenceMatrix(oracles: ReadonlyArray<OracleDefinition<ParamSpecs>>): MatrixEntry[] {
  return oracles.flatMap((oracle) =>
    oracle.references.flatMap((reference) => {
      const store = reference.store ?? oracle.stores[0]!;
      const stores: StoreKind[] = store === 'redis' && oracle.stores.includes('valkey') ? ['redis', 'valkey'] : [store];
      return stores.map((on) => ({ oracle, reference, store: on, name: entryName(reference, on, oracle.stores[0]!) }));
    }),
  );
}

function entryName(reference: ReferenceRun, store: StoreKind, defaultStore: StoreKind): string {
  const kind = reference.expect === 'FAIL' || reference.knownBad ? 'bad' : 'good';
  return `${kind} ${reference.target} ${JSON.stringify(reference.params ?? {})}${reference.topology ? ` --topology ${reference.topology}` : ''}${store !== defaultStore ? ` on ${store}` : ''}`;
}
