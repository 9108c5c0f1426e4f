/**
 * A schedule found by --explore replays exactly: the minimal failing point of V311 on a SETNX then
 * EXPIRE helper (no seam in it) FAILs 20 times out of 20, and the vitest test --emit-test writes
 * fails on the bad target and passes on the fixed one.
 */
import { execa } from 'execa';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { REPO_ROOT } from '../src/run/registry.ts';
import { runPool } from '../src/run/run-pool.ts';
import { emitTest, replayModule } from '../src/explore/emit-test.ts';
import { explore } from '../src/explore/explore.ts';
import { readSchedule, replaySchedule } from '../src/explore/replay.ts';

const BAD = 'targets/redis/node-redis/acquire-setnx-then-expire.ts';
const GOOD = 'targets/redis/node-redis/lock-correct.ts';
// Under the repo (the emitted test imports src/explore/replay.ts relatively), in a gitignored folder.
mkdirSync(join(REPO_ROOT, '.cache'), { recursive: true });
const dir = mkdtempSync(join(REPO_ROOT, '.cache', 'explore-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const found = await explore({ oracle: 'V311', target: BAD, maxPoints: 1 });

test('replay reproduces the minimal failing schedule 20/20', async () => {
  expect(found.schedule, found.record.explanation).toBeDefined();
  const path = join(dir, 'schedule.json');
  writeFileSync(path, JSON.stringify(found.schedule));
  const schedule = readSchedule(path);
  const verdicts = await runPool(
    Array.from({ length: 20 }, (_, i) => i),
    2,
    async () => (await replaySchedule(schedule)).verdict,
  );
  expect(verdicts).toEqual(Array(20).fill('FAIL'));
}, 300_000);

test('the emitted test fails on the bad target and passes on the fixed one', async () => {
  const file = emitTest(join(dir, 'v311.test.ts'), found.schedule!);
  expect(readFileSync(file, 'utf8')).toContain("process.env.LOCK_ORACLES_EXPECT ?? 'FAIL'");
  writeFileSync(join(dir, 'vitest.config.ts'), "export default { test: { include: ['*.test.ts'], retry: 0 } };\n");
  const run = (env: Record<string, string>) =>
    execa('npx', ['vitest', 'run', '--config', join(dir, 'vitest.config.ts'), '--root', dir], {
      cwd: REPO_ROOT,
      env,
      reject: false,
    });
  const [asWritten, fixedExpectsPass, badExpectsPass] = await Promise.all([
    run({}),
    run({ LOCK_ORACLES_TARGET: join(REPO_ROOT, GOOD), LOCK_ORACLES_EXPECT: 'PASS' }),
    run({ LOCK_ORACLES_EXPECT: 'PASS' }),
  ]);
  expect(asWritten.exitCode, asWritten.stdout).toBe(0); // expects FAIL on the bad target: the bug reproduces
  expect(fixedExpectsPass.exitCode, fixedExpectsPass.stdout).toBe(0); // the fixed target passes the same schedule
  expect(badExpectsPass.exitCode, badExpectsPass.stdout).toBe(1); // the bad target cannot pass it
}, 300_000);

test('an emitted test imports replaySchedule from the package once installed, else from this repository', () => {
  expect(replayModule('/project/test/v311.test.ts', true)).toBe('lock-oracles');
  expect(replayModule(join(REPO_ROOT, 'test/x/v311.test.ts'), false)).toBe('../../src/explore/replay.ts');
  expect(replayModule(join(REPO_ROOT, 'v311.test.ts'), false)).toBe('./src/explore/replay.ts');
});
