/**
 * The Valkey twins of the reference matrix: every Redis reference on a local valkey-server, held to
 * Redis's expected verdict and the same evidence checks (src/run/references.ts). Not part of
 * `npm test` (test/reference-split.ts says why): `npm run test:valkey`, which .ci/run runs.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { loadAllOracles } from '../../src/run/registry.ts';
import { referenceMatrix } from '../../src/run/reference-matrix.ts';
import { runReferences, type ReferenceOutcome } from '../../src/run/references.ts';
import { isValkeyTwin } from '../reference-split.ts';

const entries = referenceMatrix(await loadAllOracles()).filter(isValkeyTwin);
let outcomes: ReferenceOutcome[] = [];

beforeAll(async () => {
  outcomes = await runReferences(entries, { jobs: 2, runtime: 'local' });
}, 30 * 60_000);

describe.each([...new Set(entries.map((entry) => entry.oracle.id))])('%s on valkey', (id) => {
  test.each(entries.flatMap((entry, index) => (entry.oracle.id === id ? [[entry.name, index] as const] : [])))(
    '%s',
    (_name, index) => {
      const outcome = outcomes[index];
      expect(outcome, 'the matrix ran this entry').toBeDefined();
      expect(outcome!.problems, outcome!.record.explanation).toEqual([]);
    },
  );
});
