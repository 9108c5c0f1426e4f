/**
 * One entry of the reference matrix, run and checked: the verdict it must give, with every
 * precondition held and recorded, the fault landed, the server version in the evidence and, for a
 * FAIL, the offending events. Shared by the reference test (local runtime) and the container
 * parity test, so both hold every entry to the same standard.
 */
import { expect } from 'vitest';
import type { MatrixEntry } from '../src/reference-matrix.ts';
import { runOracle } from '../src/run-oracle.ts';
import type { RuntimeChoice } from '../src/stores/start-store.ts';

export async function runReference({ oracle, reference, store }: MatrixEntry, runtime: RuntimeChoice): Promise<void> {
  const record = await runOracle({
    oracle: oracle.id,
    target: reference.target,
    ...(reference.params ? { params: reference.params } : {}),
    store,
    runtime,
  });
  const why = `${record.explanation}\npreconditions: ${JSON.stringify(record.preconditions)}\n${record.error ?? ''}`;
  expect(record.verdict, why).toBe(reference.expect);
  // A verdict is only as good as its evidence: every precondition held and was recorded.
  expect(record.preconditions.length).toBeGreaterThan(0);
  expect(record.preconditions.every((c) => c.held)).toBe(true);
  expect(record.faults.length).toBeGreaterThan(0);
  expect(record.store?.version, 'the evidence names the server version').toBeTruthy();
  expect(record.store?.kind).toBe(store);
  expect(record.store?.runtime).toBe(runtime === 'container' ? 'container' : 'local-process');
  if (reference.expect === 'FAIL') expect(record.property?.offending.length).toBeGreaterThan(0);
}
