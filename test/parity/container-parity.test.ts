/**
 * Parity: the whole reference matrix (every oracle's references, every Redis one on Valkey too)
 * with every store in a container (--runtime container), held to the same verdicts and evidence
 * as the local reference test (test/reference-targets.test.ts), which asserts the same expected
 * verdict on local processes: an entry that differs between runtimes fails one of the two.
 *
 * Not part of `npm test` (about 140 runs): `npm run test:containers`, which .ci/run runs when a
 * Docker engine is up. Needs the images: bash scripts/container-engine.sh.
 */
import { describe, expect, test } from 'vitest';
import { loadAllOracles } from '../../src/registry.ts';
import { referenceMatrix } from '../../src/reference-matrix.ts';
import { dockerSocketPath, engineAnswers } from '../../src/stores/engine-socket.ts';
import { runReference } from '../reference-run.ts';

const socket = dockerSocketPath();
const engineUp = socket !== undefined && (await engineAnswers(socket, 1000));
const entries = referenceMatrix(await loadAllOracles());

describe('the reference matrix on --runtime container', () => {
  test('a Docker engine answers (this suite is meaningless without one: bash scripts/container-engine.sh)', () => {
    expect(engineUp).toBe(true);
  });

  describe.each([...new Set(entries.map((e) => e.oracle.id))])('%s', (id) => {
    test.each(entries.filter((e) => e.oracle.id === id).map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => runReference(entry, 'container'));
  });
});
