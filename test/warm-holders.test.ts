/**
 * Warm holders carry nothing between runs (src/run/run-ahead.ts): a target with module-level state
 * (test/fixtures/targets/module-state-lock.ts, whose release turns unsafe in a process that served a
 * run before) gives the same verdicts with its holders started ahead, and with the target loaded by
 * the launcher's shell before the CLI compiled it (bin/holder-shell.js), as the served process does
 * not; and a SIGKILLed harness leaves none of its warm holders behind.
 */
import { expect, test } from 'vitest';
import { taggedCli } from './tagged-cli.ts';

const { cli, leftovers } = taggedCli({ timeout: 180_000 });
const TARGET = 'test/fixtures/targets/module-state-lock.ts';
const V310 = ['V310', '--target', TARGET, '--json', '--no-report', '--quiet'];

interface Record_ {
  verdict: string;
  timing: { holdersStartedAheadMs?: number };
  history: Array<{ kind: string; holder?: string; detail: { loadedTheTargetAhead?: boolean; pid?: number } }>;
}

/** Whether A was the launcher's holder shell that loaded the target before the CLI had compiled it (bin/holder-shell.js). */
const aLoadedAhead = (record: Record_) =>
  record.history.some((e) => e.kind === 'holder-ready' && e.holder === 'A' && e.detail.loadedTheTargetAhead === true);

test('a target with module-level state: the same verdicts with holders started ahead as cold', async () => {
  const served = await cli(V310, { LOCK_ORACLES_TEST_SERVED: '1' });
  expect(
    (JSON.parse(served.stdout) as Record_).verdict,
    'its state decides the verdict: as a process that served a run, it FAILs',
  ).toBe('FAIL');
  // A fresh CLI each: its first holder is the launcher's shell, which loaded the target (compiled by
  // the run above) while the CLI loaded, in a process that served no run.
  const fresh = [] as Record_[];
  for (let i = 0; i < 3; i++) fresh.push(JSON.parse((await cli(V310)).stdout) as Record_);
  expect(fresh.map(aLoadedAhead), "A loaded the target ahead, in the launcher's shell").toEqual([true, true, true]);
  const cold = fresh.map((run) => run.verdict);
  const warm = await cli([...V310, '--runs', '3', '--jobs', '1']);
  const { runs } = JSON.parse(warm.stdout) as { runs: Record_[] };
  expect(
    runs.map((run) => run.timing.holdersStartedAheadMs !== undefined),
    'runs 2 and 3 took warm holders',
  ).toEqual([false, true, true]);
  expect(runs.map((run) => run.verdict)).toEqual(cold);
  expect(cold).toEqual(['PASS', 'PASS', 'PASS']);
  expect(leftovers()).toEqual([]);
});

test('kill -9 of the harness while warm holders wait: none is left behind', async () => {
  const run = cli(['V310', '--target', TARGET, '--runs', '6', '--jobs', '1', '--no-report', '--quiet']);
  const holders = () => leftovers().filter((line) => line.includes('module-state-lock'));
  // Run 1 starts at most 3 holders of its own; a fourth is one started ahead for run 2.
  const began = Date.now();
  while (holders().length < 4) {
    if (run.exitCode !== null || Date.now() - began > 120_000)
      throw new Error(`no warm holder appeared; processes: ${leftovers().join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  process.kill(run.pid!, 'SIGKILL');
  await run;
  // The kernel ends them on the harness's death (src/process/die-with-harness.ts); wait until they are reaped.
  const killed = Date.now();
  while (leftovers().length && Date.now() - killed < 10_000) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(leftovers()).toEqual([]);
  const clean = await cli(['clean']);
  expect(clean.exitCode, clean.stderr).toBe(0);
});

test('a holder in another language (Go) is started ahead too, a fresh process per run', async () => {
  const go = ['V310', '--target', 'targets/go/redigo_release_bare_del.go', '--runs', '2', '--jobs', '1'];
  const { stdout } = await cli([...go, '--json', '--no-report', '--quiet']);
  const { runs } = JSON.parse(stdout) as {
    runs: Record_[];
  };
  expect(runs.map((run) => run.timing.holdersStartedAheadMs !== undefined)).toEqual([false, true]);
  // A bare DEL release: FAIL, or INCONCLUSIVE when the machine was too slow to judge; never PASS or ERROR.
  for (const run of runs) expect(['FAIL', 'INCONCLUSIVE']).toContain(run.verdict);
  const pids = runs.flatMap((run) => run.history.filter((e) => e.kind === 'holder-ready').map((e) => e.detail.pid));
  expect(new Set(pids).size, 'no holder process serves two runs').toBe(pids.length);
  expect(leftovers()).toEqual([]);
});
