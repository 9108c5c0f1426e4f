/**
 * Parity on a coordination service's members: a few V313 runs on --topology etcd:3 and
 * zookeeper:3 with a member fault, each played as local processes and with every member in its
 * own container (src/stores/container-members.ts), held to the same verdict and evidence on both
 * (bad FAIL, fenced good PASS). Few entries: each zookeeper:3 is three JVMs. Part of `npm run
 * test:containers`; needs the engine and the images (bash scripts/container-engine.sh).
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { loadAllOracles } from '../../src/run/registry.ts';
import type { MatrixEntry } from '../../src/run/reference-matrix.ts';
import { runReferences, type ReferenceOutcome } from '../../src/run/references.ts';
import type { ReferenceRun } from '../../src/oracle/reference-run.ts';
import { dockerSocketPath, engineAnswers } from '../../src/stores/engine-socket.ts';

const socket = dockerSocketPath();
const engineUp = socket !== undefined && (await engineAnswers(socket, 1000));
const V313 = (await loadAllOracles()).find((oracle) => oracle.id === 'V313')!;

const REFERENCES: Array<ReferenceRun & { store: 'etcd' | 'zookeeper'; topology: string }> = [
  // npm etcd3's Lock: unfenced FAILs when A's member is paused or killed past A's lease; fenced PASSes.
  {
    target: 'targets/etcd/lock-job.ts',
    expect: 'FAIL',
    store: 'etcd',
    topology: 'etcd:3',
    params: { ttl: 2000, landedFault: 'member-killed' },
  },
  {
    target: 'targets/etcd/lock-job-fenced.ts',
    expect: 'PASS',
    store: 'etcd',
    topology: 'etcd:3',
    params: { ttl: 2000, landedFault: 'member-paused' },
  },
  // The ZooKeeper lock recipe, unfenced and fenced by its node's czxid, A's member paused.
  {
    target: 'targets/zookeeper/recipe-job.ts',
    expect: 'FAIL',
    store: 'zookeeper',
    topology: 'zookeeper:3',
    params: { landedFault: 'member-paused' },
  },
  {
    target: 'targets/zookeeper/recipe-job-fenced.ts',
    expect: 'PASS',
    store: 'zookeeper',
    topology: 'zookeeper:3',
    params: { landedFault: 'member-paused' },
  },
];

const entries: MatrixEntry[] = REFERENCES.map((reference) => ({
  oracle: V313,
  reference,
  store: reference.store,
  name: `${reference.expect === 'FAIL' ? 'bad' : 'good'} ${reference.target} ${JSON.stringify(reference.params)} --topology ${reference.topology}`,
}));
const RUNTIMES = ['local', 'container'] as const;
const outcomes = new Map<(typeof RUNTIMES)[number], ReferenceOutcome[]>();

beforeAll(async () => {
  if (!engineUp) return;
  for (const runtime of RUNTIMES) outcomes.set(runtime, await runReferences(entries, { jobs: 1, runtime }));
}, 30 * 60_000);

describe('V313 on etcd:3 and zookeeper:3 under member faults: local processes and containers alike', () => {
  test('a Docker engine answers (this suite is meaningless without one: bash scripts/container-engine.sh)', () => {
    expect(engineUp).toBe(true);
  });

  test.each(entries.flatMap((entry, index) => RUNTIMES.map((runtime) => [entry.name, runtime, index] as const)))(
    '%s on %s',
    (_name, runtime, index) => {
      const outcome = outcomes.get(runtime)?.[index];
      expect(outcome, 'the entry ran (is the engine up?)').toBeDefined();
      expect(outcome!.record.store?.runtime).toBe(runtime === 'local' ? 'local-process' : 'container');
      expect(outcome!.record.store?.topology?.name).toBe(entries[index]!.reference.topology);
      expect(outcome!.problems, outcome!.record.explanation).toEqual([]);
    },
  );
});
