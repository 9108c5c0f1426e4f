/**
 * A batch's runs start with holders started ahead while the runs before them played, from a
 * small warm pool (src/run/run-ahead.ts): still fresh processes of their own (no holder process serves
 * two runs), at most the pool's depth started ahead, none beyond the runs expected, and none left
 * running, even when the run they were started for is refused.
 */
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { prepareRun, WarmPool, type PreparedRun } from '../src/run/run-ahead.ts';
import { runOracle } from '../src/run/run-oracle.ts';
import { UsageError } from '../src/core/errors.ts';
import { taggedCli } from './tagged-cli.ts';

const { cli, leftovers } = taggedCli();
const PROBE = fileURLToPath(new URL('./fixtures/env-probe.ts', import.meta.url));

interface RunBody {
  verdict: string;
  timing: { holdersStartedAheadMs?: number };
  history: Array<{ kind: string; detail: { pid?: number } }>;
}

test('--runs 3 --jobs 1: runs 2 and 3 start with holders started ahead, each run with processes of its own', async () => {
  const { stdout, exitCode } = await cli([
    'V310',
    '--target',
    'targets/redis/ioredis/release-bare-del.ts',
    '--runs',
    '3',
    '--jobs',
    '1',
    '--json',
    '--no-report',
    '--quiet',
  ]);
  expect(exitCode, stdout).not.toBe(2);
  const { runs } = JSON.parse(stdout) as { runs: RunBody[] };
  expect(runs.map((run) => run.verdict)).not.toContain('ERROR');
  expect(runs.map((run) => run.timing.holdersStartedAheadMs !== undefined)).toEqual([false, true, true]);
  const pids = runs.map((run) =>
    run.history.filter((event) => event.kind === 'holder-ready').map((event) => event.detail.pid),
  );
  expect(pids.map((run) => run.length)).toEqual([3, 3, 3]);
  expect(new Set(pids.flat()).size, 'no holder process serves two runs').toBe(9);
  expect(leftovers()).toEqual([]);
});

test('the pool keeps `depth` runs started ahead, only when told to fill, each for its own need; close ends the untaken', async () => {
  const prepared: Array<Promise<PreparedRun>> = [];
  const pool = new WarmPool(2, (target, ids) => {
    const run = prepareRun(target, ids);
    prepared.push(run);
    return run;
  });
  const need = { target: PROBE, holders: ['A'] };
  pool.expect(need, 4);
  expect(await pool.take(need), 'nothing started yet: the first run starts its own').toBeUndefined();
  expect(prepared, 'expecting starts nothing').toHaveLength(0);
  pool.fill();
  pool.fill();
  expect(prepared, 'two ahead, the depth').toHaveLength(2);
  expect(await pool.take({ target: PROBE, holders: ['A', 'B'] }), 'another need: its own holders').toBeUndefined();
  const second = await pool.take(need);
  expect(second?.holders.get('A')).toBeDefined();
  pool.fill();
  expect(prepared, 'the fourth run was the last expected: one more, none after it').toHaveLength(3);
  pool.fill();
  expect(prepared).toHaveLength(3);
  await Promise.all([...second!.holders.values()].map((holder) => holder.close()));
  await pool.close();
  const untaken = (await Promise.all(prepared)).filter((run) => run !== second);
  expect(
    untaken.flatMap((run) => [...run.holders.values()].map((holder) => holder.exit !== undefined)),
    'the two no run took have ended',
  ).toEqual([true, true]);
  expect(await pool.take(need), 'closed: a run starts its own').toBeUndefined();
});

test('a depth given as a function is asked at each fill: the pool keeps as many ahead as it says then', async () => {
  let depth = 1;
  const prepared: Array<Promise<PreparedRun>> = [];
  const pool = new WarmPool(
    () => depth,
    (target, ids) => {
      const run = prepareRun(target, ids);
      prepared.push(run);
      return run;
    },
  );
  const need = { target: PROBE, holders: ['A'] };
  pool.expect(need, 5);
  pool.fill();
  expect(prepared, 'depth 1').toHaveLength(1);
  depth = 3;
  pool.fill();
  expect(prepared, 'depth 3: two more').toHaveLength(3);
  depth = 0;
  expect(() => pool.fill(), 'a depth below 1 is refused').toThrow(/depth must be ≥ 1, got 0/);
  await pool.close();
  expect(
    (await Promise.all(prepared)).flatMap((run) =>
      [...run.holders.values()].map((holder) => holder.exit !== undefined),
    ),
    'closed: every one ended',
  ).toEqual([true, true, true]);
});

test('a run refused before it starts (a bad parameter) ends the holders started ahead for it', async () => {
  const prepared = await prepareRun(PROBE, ['A', 'B']);
  const refused = runOracle({ oracle: 'V310', target: PROBE, params: { ttl: '-5' }, prepared });
  await expect(refused).rejects.toThrow(UsageError);
  expect(
    [...prepared.holders.values()].map((holder) => holder.exit !== undefined),
    'its processes have ended',
  ).toEqual([true, true]);
});
