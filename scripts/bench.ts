/**
 * The speed benchmark (issue 35; issue 10 before it): each row of issue 35's table measured in one
 * run, side by side with `node -e 0` and the same V310 scenario hand-written as a vitest test, with
 * the machine's load before and after every row. Wall times say how busy the shared machine was as
 * much as how fast the harness is, so every row also gives the CPU time (user + system of the
 * command and every child it waited for, by GNU time) and the load. A benchmark, not a timed test:
 * nothing here fails on a figure.
 *
 * Rows, each the median of --repeat runs (range beside it):
 * - `node -e 0`, `lock-oracles --help`, `lock-oracles list` (a cold start each: a fresh process);
 * - `npm run oracle -- V310 --target targets/redis/ioredis/lock-correct.ts --ttl 200`, the whole
 *   command and the harness's own wall (evidence `timing`: store start, holders ready); the same
 *   command through the bin without npm, and `npm run -s oracle -- --help` (npm's own start);
 * - V310 on release-bare-del.ts (the bad twin: the scenario the hand-written test writes) through
 *   `node bin/lock-oracles.js`, and the hand-written vitest files (scripts/handwritten/) against a
 *   local redis-server and, where a container engine answers, testcontainers' Redis module;
 * - with --explore, the two 64-point V313 explorations of the issue (one run each: tens of seconds);
 * - with --install, `npm pack` of this tree installed into a scratch project (packages, MB, seconds);
 * - with --matrix, the reference matrix at --jobs 2 and at twice the cores.
 * `npm test` and `.ci/run` are timed by running them (docs/benchmarks.md), not here.
 *
 * Usage: npm run bench [-- --repeat 5] [--explore] [--install] [--matrix] [--write]
 *   (--write replaces the `<!-- bench:issue35 -->` section of docs/benchmarks.md)
 */
import { parseArgs } from 'node:util';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { dockerSocketPath, engineAnswers } from '../src/stores/engine-socket.ts';

const { values } = parseArgs({
  options: {
    repeat: { type: 'string', default: '5' },
    write: { type: 'boolean' },
    explore: { type: 'boolean' },
    install: { type: 'boolean' },
    matrix: { type: 'boolean' },
  },
});
const repeat = Number(values.repeat);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () => loadavg()[0]!.toFixed(1);
const TIME = '/usr/bin/time';

interface Timed {
  ms: number;
  /** Date.now() as the command was spawned and as it ended: where a run's own clock (evidence `startedAt`) falls inside it. */
  spawnedAt: number;
  endedAt: number;
  /** User + system CPU of the command and the children it waited for; undefined without GNU time. */
  cpuMs: number | undefined;
  stdout: string;
  exitCode: number | undefined;
}

/** One run of a command: its wall time and, where GNU time is installed, its CPU time. */
async function timed(command: string, args: string[], cwd?: string): Promise<Timed> {
  const cpuFile = join(tmpdir(), `lock-oracles-bench-cpu-${process.pid}`);
  const withTime = existsSync(TIME);
  const began = performance.now();
  const spawnedAt = Date.now();
  const result = withTime
    ? await execa(TIME, ['-f', '%U %S', '-o', cpuFile, command, ...args], { reject: false, stderr: 'ignore', cwd })
    : await execa(command, args, { reject: false, stderr: 'ignore', cwd });
  const ms = performance.now() - began;
  const endedAt = Date.now();
  let cpuMs: number | undefined;
  if (withTime) {
    // The last line: GNU time writes "Command exited with non-zero status N" first when it did.
    const [user, system] = readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
    cpuMs = (user! + system!) * 1000;
    rmSync(cpuFile, { force: true });
  }
  return { ms, spawnedAt, endedAt, cpuMs, stdout: result.stdout, exitCode: result.exitCode };
}

const lines: string[] = [];
const say = (line = '') => {
  console.log(line);
  lines.push(line);
};
const ms = (x: number) => x.toFixed(0);
const range = (xs: number[]) => `${ms(Math.min(...xs))}–${ms(Math.max(...xs))}`;

/** A row of the table: `what`, the command's wall (median and range), its CPU, the goal, the load. */
async function row(
  what: string,
  goal: string,
  command: string,
  args: string[],
  check: (run: Timed) => string | undefined = () => undefined,
): Promise<Timed[]> {
  const before = load();
  const runs: Timed[] = [];
  for (let i = 0; i < repeat; i++) runs.push(await timed(command, args));
  const cpu = runs.flatMap((r) => (r.cpuMs === undefined ? [] : [r.cpuMs]));
  const problems = [...new Set(runs.map(check).filter(Boolean))];
  say(
    `| ${what} | ${ms(median(runs.map((r) => r.ms)))} (${range(runs.map((r) => r.ms))}) | ${cpu.length ? ms(median(cpu)) : '—'} | ${goal} | ${problems.join('; ') || '—'} | ${before} → ${load()} |`,
  );
  return runs;
}

say(
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${availableParallelism()} cores, node ${process.version}; each row the median of ${repeat} runs (range), ms.`,
);
say();
say('| what | wall ms | CPU ms | goal (issue 35) | verdicts / notes | load before → after |');
say('|---|---|---|---|---|---|');
await timed('node', ['bin/lock-oracles.js', 'list']); // the build is fresh before anything is timed
await row('`node -e 0`', 'the floor', 'node', ['-e', '0']);
await row('`lock-oracles --help` (`node bin/lock-oracles.js --help`)', '≤ 130, within 50 of `node -e 0`', 'node', [
  'bin/lock-oracles.js',
  '--help',
]);
await row('`lock-oracles list`', '≤ 130, within 50 of `node -e 0`', 'node', ['bin/lock-oracles.js', 'list']);

const V310_CORRECT = ['V310', '--target', 'targets/redis/ioredis/lock-correct.ts', '--ttl', '200'];
const harness: Array<{ wallMs: number; storeStartMs: number; holdersReadyMs: number }> = [];
/** Per run: from the spawn to the run's beginning (npm, node, the CLI's loading), and from the end of its wall to the exit. */
const outside: Array<{ beforeMs: number; afterMs: number }> = [];
const verdictOf = (run: Timed) => {
  const record = JSON.parse(run.stdout) as {
    verdict: string;
    startedAt: string;
    timing: { wallMs: number; storeStartMs: number; holdersReadyMs: number };
  };
  harness.push(record.timing);
  const began = Date.parse(record.startedAt);
  outside.push({ beforeMs: began - run.spawnedAt, afterMs: run.endedAt - (began + record.timing.wallMs) });
  return record.verdict;
};
await row(
  '`npm run oracle -- V310 --target targets/redis/ioredis/lock-correct.ts --ttl 200`, whole command',
  '≤ 450 (inherent ≈ 250)',
  'npm',
  ['run', '-s', 'oracle', '--', ...V310_CORRECT, '--json', '--no-report', '--quiet'],
  verdictOf,
);
say(
  `| the same, harness wall (evidence \`timing.wallMs\`; store start ${range(harness.map((t) => t.storeStartMs))}, holders ready ${range(harness.map((t) => t.holdersReadyMs))}) | ${ms(median(harness.map((t) => t.wallMs)))} (${range(harness.map((t) => t.wallMs))}) | — | ≤ 290 (inherent ≈ 250) | — | — |`,
);
say(
  `| the same, outside the harness wall: from the spawn to the run's beginning (npm, node, the CLI's loading; evidence \`startedAt\`, ms resolution) ${ms(median(outside.map((o) => o.beforeMs)))} (${range(outside.map((o) => o.beforeMs))}), from the wall's end to the exit ${ms(median(outside.map((o) => o.afterMs)))} (${range(outside.map((o) => o.afterMs))}) | — | — | — | — | — |`,
);
await row(
  "the same command through the package's bin without npm (`node bin/lock-oracles.js`: what `lock-oracles` in `node_modules/.bin` runs)",
  '—',
  'node',
  ['bin/lock-oracles.js', ...V310_CORRECT, '--json', '--no-report', '--quiet'],
  (run) => (JSON.parse(run.stdout) as { verdict: string }).verdict,
);
await row("`npm run -s oracle -- --help`: npm's own start on top of `lock-oracles --help` (above)", '—', 'npm', [
  'run',
  '-s',
  'oracle',
  '--',
  '--help',
]);

await row(
  'V310 on `release-bare-del.ts` (`node bin/lock-oracles.js`): a scratch redis-server, holder processes, a real SIGSTOP',
  '—',
  'node',
  [
    'bin/lock-oracles.js',
    'V310',
    '--target',
    'targets/redis/ioredis/release-bare-del.ts',
    '--ttl',
    '200',
    '--json',
    '--no-report',
    '--quiet',
  ],
  (run) => (JSON.parse(run.stdout) as { verdict: string }).verdict,
);
const vitestArgs = (file: string) => ['vitest', 'run', '--config', 'scripts/handwritten/vitest.config.ts', file];
const passed = (run: Timed) => (run.exitCode === 0 ? 'test passed' : `test failed (exit ${run.exitCode})`);
await row(
  'the same scenario hand-written as a vitest test (`npx vitest run scripts/handwritten/v310-local-redis.test.ts`): one redis-server, two ioredis clients in the test process',
  '—',
  'npx',
  vitestArgs('scripts/handwritten/v310-local-redis.test.ts'),
  passed,
);
const socket = dockerSocketPath();
if (socket && (await engineAnswers(socket)))
  await row(
    'the same, with testcontainers’ Redis module (`scripts/handwritten/v310-testcontainers.test.ts`): one Redis container',
    '—',
    'npx',
    vitestArgs('scripts/handwritten/v310-testcontainers.test.ts'),
    passed,
  );
else say('| the same, with testcontainers’ Redis module | not run: no container engine answers here | | | | |');

if (values.explore) {
  /** One exploration (tens of seconds: run once), with its points and the wall per point. */
  const explore = async (what: string, goal: string, args: string[]) => {
    const before = load();
    const run = await timed('node', ['bin/lock-oracles.js', ...args, '--explore', '--json', '--no-report', '--quiet']);
    const record = JSON.parse(run.stdout) as { verdict: string; exploration: { points: unknown[] } };
    const points = record.exploration.points.length;
    say(
      `| ${what}: ${points} points, ${ms(run.ms / points)} ms a point${run.cpuMs === undefined ? '' : `, ${ms(run.cpuMs / points)} CPU ms a point`} | ${ms(run.ms)} (one run) | ${run.cpuMs === undefined ? '—' : ms(run.cpuMs)} | ${goal} | ${record.verdict} | ${before} → ${load()} |`,
    );
  };
  await explore(
    'V313 explored, `targets/redis/semaphore/mutex-job-fenced.ts --steps 5 --step-ms 200` (a self-renewing helper)',
    '≤ 20 000 for 64 points',
    ['V313', '--target', 'targets/redis/semaphore/mutex-job-fenced.ts', '--steps', '5', '--step-ms', '200'],
  );
  await explore(
    'V313 explored, `targets/redis/redlock/using-checks-signal-fenced.ts --steps 3 --step-ms 1400` (redlock `using()`)',
    '≤ 45 000 for 64 points',
    ['V313', '--target', 'targets/redis/redlock/using-checks-signal-fenced.ts', '--steps', '3', '--step-ms', '1400'],
  );
}

say(
  '| `npm test` (goal ≤ 480 s) and `.ci/run` (goal ≤ 30 min) | not run here: a whole suite, timed as `/usr/bin/time npm test` on a quiet machine (`npx tsx scripts/suite-seconds.ts` reads its JSON report) | | | | |',
);

if (values.install) {
  // What `npm i -D lock-oracles` carries: this tree packed (prepack builds dist/ and the types),
  // installed from the tarball into an empty project, from npm's cache where it can.
  const scratch = mkdtempSync(join(tmpdir(), 'lock-oracles-bench-install-'));
  try {
    const before = load();
    const packed = await execa('npm', ['pack', '--json', '--pack-destination', scratch], {
      env: { npm_config_loglevel: 'error' },
    });
    const { filename } = (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0]!;
    const project = join(scratch, 'project');
    await execa('mkdir', [project]);
    writeFileSync(join(project, 'package.json'), '{ "name": "scratch", "private": true }\n');
    const install = await timed(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-dev', join(scratch, filename)],
      project,
    );
    const listed = await execa('npm', ['ls', '--all', '--parseable'], { cwd: project, reject: false });
    const packages = listed.stdout.trim().split('\n').length - 1;
    const size = (await execa('du', ['-sm', join(project, 'node_modules')])).stdout.split('\t')[0];
    say(
      `| \`npm install --save-dev\` of this tree's \`npm pack\` into an empty project (npm cache warm, --prefer-offline): ${packages} packages, ${size} MB in node_modules | ${ms(install.ms)} (one run) | ${install.cpuMs === undefined ? '—' : ms(install.cpuMs)} | what the harness itself needs | exit ${install.exitCode} | ${before} → ${load()} |`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (values.matrix) {
  say();
  say(
    'The whole reference matrix: at `--jobs 2`, as `npm test` runs it beside its other files, and at the default (`--jobs` twice the cores: a reference run mostly waits), as a user and CI run it (`node bin/lock-oracles.js references [--jobs 2] --json`):',
  );
  say();
  say(
    '| --jobs | entries | right | wrong | played again alone | command wall s | command CPU s | load before → after |',
  );
  say('|---|---|---|---|---|---|---|---|');
  for (const jobs of ['2', String(2 * availableParallelism())]) {
    const before = load();
    const run = await timed('node', ['bin/lock-oracles.js', 'references', '--jobs', jobs, '--json']);
    const body = JSON.parse(run.stdout) as {
      right: number;
      wrong: number;
      references: Array<{ crowdedAttempt?: unknown }>;
    };
    const replayed = body.references.filter((r) => r.crowdedAttempt).length;
    const cpu = run.cpuMs === undefined ? '—' : (run.cpuMs / 1000).toFixed(1);
    say(
      `| ${jobs} | ${body.references.length} | ${body.right} | ${body.wrong} | ${replayed} | ${(run.ms / 1000).toFixed(1)} | ${cpu} | ${before} → ${load()} |`,
    );
  }
}

if (values.write) {
  const doc = readFileSync('docs/benchmarks.md', 'utf8');
  const [start, end] = ['<!-- bench:issue35 -->', '<!-- /bench:issue35 -->'];
  const section = `${start}\n${lines.join('\n')}\n${end}`;
  const next = doc.includes(start)
    ? doc.replace(new RegExp(`${start}[\\s\\S]*${end}`), section)
    : `${doc.trimEnd()}\n\n## Speed: issue 35's table (\`npm run bench\`)\n\n${section}\n`;
  writeFileSync('docs/benchmarks.md', next);
  console.log('\nwritten to docs/benchmarks.md');
}
