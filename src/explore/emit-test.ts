/**
 * `--emit-test <file>`: the failing-first test a fixer commits. It replays the minimal failing
 * schedule and expects FAIL on the target it was found on; pointed at the fixed target
 * (LOCK_ORACLES_TARGET=<fixed> LOCK_ORACLES_EXPECT=PASS) the same test expects PASS.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { INSTALLED, REPO_ROOT } from '../core/invocation.ts';
import { pointLabel, type Schedule } from '../oracle/explore-point.ts';

export function emitTest(file: string, schedule: Schedule): string {
  const path = resolve(file);
  const replay = replayModule(path);
  const target = resolve(REPO_ROOT, schedule.target);
  const body = `/**
 * Failing-first test emitted by lock-oracles --explore: it replays the schedule that broke
 * ${schedule.oracle} on ${schedule.target} (${pointLabel(schedule)}).
 * As written it expects FAIL (the bug reproduces). After the fix, run it against the fixed target:
 *   LOCK_ORACLES_TARGET=<fixed target> LOCK_ORACLES_EXPECT=PASS npx vitest run ${relative(process.cwd(), path)}
 */
import { expect, test } from 'vitest';
import { replaySchedule } from '${replay}';

const schedule = ${JSON.stringify(schedule, null, 2)} as const;
const target = process.env.LOCK_ORACLES_TARGET ?? ${JSON.stringify(target)};
const expected = process.env.LOCK_ORACLES_EXPECT ?? 'FAIL';

test(\`${schedule.oracle} at ${pointLabel(schedule).replace(/`/g, "'")}: \${expected} on \${target}\`, async () => {
  const record = await replaySchedule(schedule as never, { target });
  expect(record.verdict, record.explanation).toBe(expected);
}, 60_000);
`;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, body);
  return path;
}

/** Where the emitted test imports `replaySchedule` from: the package once installed, else this repository's source. */
export function replayModule(testFile: string, installed = INSTALLED): string {
  if (installed) return 'lock-oracles';
  const path = relative(dirname(testFile), resolve(REPO_ROOT, 'src/explore/replay.ts'));
  return path.startsWith('.') ? path : `./${path}`;
}
