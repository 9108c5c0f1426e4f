/**
 * A batch's next run starts with holders started ahead while the run before it played
 * (src/run/run-ahead.ts): still fresh processes of its own (no holder process serves two runs), one
 * run prepared at a time, none once every run has started, and none left running, even when the
 * run they were started for is refused.
 */
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { prepareRun, RunAhead, type PreparedRun } from '../src/run/run-ahead.ts';
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

test('one run is prepared at a time, none once every run has started; one no run took is ended by discard', async () => {
  const prepared: PreparedRun[] = [];
  const ahead = new RunAhead(2, async () => {
    const run = await prepareRun(PROBE, ['A']);
    prepared.push(run);
    return run;
  });
  expect(await ahead.take()).toBeUndefined();
  ahead.holdersReady();
  ahead.holdersReady();
  const second = await ahead.take();
  expect(second?.holders.get('A')).toBeDefined();
  ahead.holdersReady();
  expect(prepared, 'both runs have started: nothing more to prepare').toHaveLength(1);
  await Promise.all([...second!.holders.values()].map((holder) => holder.close()));

  let unused: Promise<PreparedRun> | undefined;
  const stopped = new RunAhead(3, () => (unused = prepareRun(PROBE, ['A', 'B'])));
  await stopped.take();
  stopped.holdersReady();
  await stopped.discard();
  expect(
    [...(await unused!).holders.values()].map((holder) => holder.exit !== undefined),
    'its processes have ended',
  ).toEqual([true, true]);
  expect(await stopped.take(), 'discarded: the next run starts its own').toBeUndefined();
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
