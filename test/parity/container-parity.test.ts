/**
 * Parity: the whole reference matrix (every oracle's references, every Redis one on Valkey too)
 * with every store in a container (--runtime container), held to the same verdicts and evidence
 * as the local reference test (test/reference-targets.test.ts), which asserts the same expected
 * verdict on local processes: an entry that differs between runtimes fails one of the two.
 *
 * Not part of `npm test` (about 400 runs, etcd and ZooKeeper among them): `npm run
 * test:containers`, which .ci/run runs when a Docker engine is up. Needs the images: bash scripts/container-engine.sh. A store with no
 * container (a scratch directory, --store fs) is left out, and a test names each one left out with
 * its recipe's reason, as is a reference whose fault lands on local processes only (a fault's
 * `localOnly`: member-partitioned's relays). The references on several nodes (--topology) run here too, every node in
 * its own container (docs/topologies.md); etcd:3 and zookeeper:3 under member faults, local against
 * containers, are in member-topology-parity.test.ts.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { loadAllOracles } from '../../src/run/registry.ts';
import { referenceMatrix } from '../../src/run/reference-matrix.ts';
import { dockerSocketPath, engineAnswers } from '../../src/stores/engine-socket.ts';
import { runReferences, type ReferenceOutcome } from '../../src/run/references.ts';
import { recipeFor } from '../../src/families/recipes.ts';
import { LANDING_FAULTS } from '../../src/faults/registry.ts';

const socket = dockerSocketPath();
const engineUp = socket !== undefined && (await engineAnswers(socket, 1000));
const matrix = referenceMatrix(await loadAllOracles());
/** Why an entry's fault lands on local processes only (member-partitioned's relays), or undefined. */
const localOnly = (entry: (typeof matrix)[number]) =>
  LANDING_FAULTS.find((f) => f.name === entry.reference.params?.['landedFault'])?.localOnly;
const entries = matrix.filter((entry) => recipeFor(entry.store).container !== undefined && !localOnly(entry));
const localFaultOnly = matrix.filter((entry) => recipeFor(entry.store).container !== undefined && localOnly(entry));
const onNodes = entries.filter((entry) => entry.reference.topology !== undefined);
const withoutContainer = matrix.filter((entry) => recipeFor(entry.store).container === undefined);
let outcomes: ReferenceOutcome[] = [];

// One runner for every matrix (src/run/references.ts), two runs at a time, each store in a container.
beforeAll(async () => {
  if (engineUp) outcomes = await runReferences(entries, { jobs: 2, runtime: 'container' });
}, 60 * 60_000);

describe('the reference matrix on --runtime container', () => {
  test('a Docker engine answers (this suite is meaningless without one: bash scripts/container-engine.sh)', () => {
    expect(engineUp).toBe(true);
  });

  test('only stores with no container and faults that land on local processes only are left out, each saying why', () => {
    expect(entries.length).toBeGreaterThan(100);
    for (const entry of withoutContainer) expect(recipeFor(entry.store).noContainer, entry.name).toBeTruthy();
    for (const entry of localFaultOnly) expect(localOnly(entry), entry.name).toBeTruthy();
    expect(matrix.length - entries.length, 'left out: stores with no container, local-only faults').toBe(
      withoutContainer.length + localFaultOnly.length,
    );
  });

  test('the references on several nodes (--topology) are in, on Redis and on Valkey at least', () => {
    expect(onNodes.length).toBeGreaterThanOrEqual(10);
    expect([...new Set(onNodes.map((entry) => entry.store))]).toEqual(expect.arrayContaining(['redis', 'valkey']));
  });

  describe.each([...new Set(entries.map((e) => e.oracle.id))])('%s', (id) => {
    test.each(entries.flatMap((entry, index) => (entry.oracle.id === id ? [[entry.name, index] as const] : [])))(
      '%s',
      (_name, index) => {
        const outcome = outcomes[index];
        expect(outcome, 'the matrix ran this entry (is the engine up?)').toBeDefined();
        expect(outcome!.problems, outcome!.record.explanation).toEqual([]);
      },
    );
  });
});
