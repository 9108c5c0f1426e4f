/**
 * Speed of a verdict against the time the scenario has to wait (issue 10). Per oracle, at default
 * parameters, on its first bad reference target:
 * - inherent wait: what the scenario cannot avoid, computed from the parameters (see INHERENT);
 * - first run: a fresh `node bin/lock-oracles.js … --json` process (the harness's own wallMs, and
 *   the whole command as a user times it), median of --repeat; `npm run oracle` the same way;
 * - per run at `--runs 10 --jobs 2`: the whole command's wall / 10;
 * - how long the holders took to be ready (target loaded, connect done), from the evidence;
 * - the load average (1 min) before and after every row.
 * With --matrix, the whole reference matrix as the test suite runs it (`references --jobs 2`) and at the
 * default --jobs (twice the cores).
 * Then the side-by-side: the V310 pause scenario hand-written as a vitest test
 * (scripts/handwritten/), against a local redis-server and against testcontainers' Redis module.
 * Usage: npm run bench [-- --repeat 5] [--matrix] [--write]   (--write replaces the section in docs/benchmarks.md)
 */
import { parseArgs } from 'node:util';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { loadOracle } from '../src/run/registry.ts';
import { resolveParams } from '../src/core/params.ts';

const { values } = parseArgs({
  options: {
    repeat: { type: 'string', default: '5' },
    write: { type: 'boolean' },
    oracles: { type: 'string', default: 'V310,V312,V313' },
    matrix: { type: 'boolean' },
  },
});
const repeat = Number(values.repeat);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () => loadavg()[0]!.toFixed(1);
type Params = Record<string, string | number>;

/** The waits a scenario cannot avoid, from its parameters. */
const INHERENT: Record<string, (p: Params) => number> = {
  // A's lock must lapse while A is stopped.
  V310: (p) => Number(p.ttl),
  // A runs its whole job (steps × stepMs) while P holds the lock.
  V312: (p) => Number(p.steps) * Number(p.stepMs),
  // B's calibration job (steps × stepMs), A's lease lapsing while A is stopped (ttl), A's remaining steps.
  V313: (p) => Number(p.ttl) + (2 * Number(p.steps) - 1) * Number(p.stepMs),
  // A is killed; B's retries run until A's TTL lapses.
  V311: (p) => Number(p.ttl),
};

const TIME = '/usr/bin/time';
/**
 * The wall time of a command and, where GNU time is installed, its CPU time (user + system, of the
 * command and every child it waited for: holders, store servers): on a shared, loaded machine the
 * CPU time is the honest cost, the wall time mostly says how busy the machine was.
 */
async function timed(
  command: string,
  args: string[],
): Promise<{ ms: number; cpuMs: number | undefined; stdout: string }> {
  const began = performance.now();
  const cpuFile = join(tmpdir(), `lock-oracles-bench-cpu-${process.pid}`);
  const withTime = existsSync(TIME);
  const result = withTime
    ? await execa(TIME, ['-f', '%U %S', '-o', cpuFile, command, ...args], { reject: false, stderr: 'ignore' })
    : await execa(command, args, { reject: false, stderr: 'ignore' });
  const ms = performance.now() - began;
  let cpuMs: number | undefined;
  if (withTime) {
    // The last line: GNU time writes "Command exited with non-zero status N" first when it did.
    const [user, system] = readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
    cpuMs = (user! + system!) * 1000;
    rmSync(cpuFile, { force: true });
  }
  return { ms, cpuMs, stdout: result.stdout };
}

const lines: string[] = [];
const say = (line = '') => {
  console.log(line);
  lines.push(line);
};

say(
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${availableParallelism()} cores, node ${process.version}; first-run figures are the median of ${repeat}.`,
);
say();
say(
  '| oracle | target | inherent ms | harness wall ms (first run) | ratio | first holders ready ms | command wall ms (node bin/lock-oracles.js) | command CPU ms | npm run oracle ms | per run at --runs 10 --jobs 2 ms | ratio | CPU per run ms | verdicts | load before → after |',
);
say('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const id of values.oracles.split(',')) {
  const oracle = await loadOracle(id);
  const reference = oracle.references.find((r) => r.expect === 'FAIL' && !r.params)!;
  const params = resolveParams(oracle.params, {});
  const inherent = INHERENT[oracle.id]!(params);
  const args = [oracle.id, '--target', reference.target, '--json', '--no-report', '--quiet'];
  const before = load();
  await timed('node', ['bin/lock-oracles.js', 'list']); // the build is fresh before anything is timed
  const harness: number[] = [];
  const ready: number[] = [];
  const command: number[] = [];
  const commandCpu: number[] = [];
  const verdicts = new Set<string>();
  for (let i = 0; i < repeat; i++) {
    const run = await timed('node', ['bin/lock-oracles.js', ...args]);
    if (run.cpuMs !== undefined) commandCpu.push(run.cpuMs);
    const record = JSON.parse(run.stdout) as { verdict: string; timing: { wallMs: number; holdersReadyMs: number } };
    verdicts.add(record.verdict);
    harness.push(record.timing.wallMs);
    ready.push(record.timing.holdersReadyMs);
    command.push(run.ms);
  }
  const npm: number[] = [];
  for (let i = 0; i < repeat; i++) npm.push((await timed('npm', ['run', '-s', 'oracle', '--', ...args])).ms);
  const batch = await timed('node', ['bin/lock-oracles.js', ...args, '--runs', '10', '--jobs', '2']);
  const combined = JSON.parse(batch.stdout) as { verdict: string; runs: Array<{ verdict: string }> };
  for (const r of combined.runs) verdicts.add(r.verdict);
  const perRun = batch.ms / 10;
  const ratio = (ms: number) => (inherent > 0 ? `${(ms / inherent).toFixed(2)}×` : '—');
  const cpu = (ms: number | undefined) => (ms === undefined ? '—' : ms.toFixed(0));
  say(
    `| ${oracle.id} | ${reference.target.replace('targets/redis/', '')} | ${inherent} | ${median(harness).toFixed(0)} | ${ratio(median(harness))} | ${median(ready).toFixed(0)} | ${median(command).toFixed(0)} | ` +
      `${cpu(commandCpu.length ? median(commandCpu) : undefined)} | ${median(npm).toFixed(0)} | ${perRun.toFixed(0)} | ${ratio(perRun)} | ${cpu(batch.cpuMs === undefined ? undefined : batch.cpuMs / 10)} | ${[...verdicts].join('/')} | ${before} → ${load()} |`,
  );
}

say();
say(
  'Side by side, the V310 pause scenario (A takes a 200 ms lock, is stopped past its TTL, B takes the lock, A releases with a bare DEL; assert B lost its lock) as a user would otherwise write it: one vitest file, `npx vitest run` as the whole command, median of ' +
    `${repeat}:`,
);
say();
say('| how | what it starts | command wall ms | load before → after |');
say('|---|---|---|---|');
const handwritten = [
  {
    how: 'hand-written vitest, local redis-server',
    file: 'scripts/handwritten/v310-local-redis.test.ts',
    starts: 'one redis-server process, two ioredis clients in the test process',
  },
  {
    how: 'hand-written vitest, testcontainers Redis module',
    file: 'scripts/handwritten/v310-testcontainers.test.ts',
    starts: 'one Redis container (@testcontainers/redis), two ioredis clients in the test process',
  },
];
for (const h of handwritten) {
  const before = load();
  const walls: number[] = [];
  let failed = 0;
  for (let i = 0; i < repeat; i++) {
    const began = performance.now();
    const run = await execa('npx', ['vitest', 'run', '--config', 'scripts/handwritten/vitest.config.ts', h.file], {
      reject: false,
      all: true,
    });
    walls.push(performance.now() - began);
    if (run.exitCode !== 0) failed++;
  }
  say(
    `| ${h.how} | ${h.starts} | ${failed ? `${failed}/${repeat} runs failed` : median(walls).toFixed(0)} | ${before} → ${load()} |`,
  );
}
{
  const before = load();
  const walls: number[] = [];
  for (let i = 0; i < repeat; i++)
    walls.push(
      (
        await timed('node', [
          'bin/lock-oracles.js',
          'V310',
          '--target',
          'targets/redis/ioredis/release-bare-del.ts',
          '--no-report',
          '--quiet',
        ])
      ).ms,
    );
  say(
    `| lock-oracles V310 (node bin/lock-oracles.js) | a scratch redis-server, three holder processes (A, B, C), real SIGSTOP | ${median(walls).toFixed(0)} | ${before} → ${load()} |`,
  );
}

let matrixByOracle = new Map<string, number>();
if (values.matrix) {
  say();
  say(
    'The whole reference matrix: at `--jobs 2`, as `npm test` runs it beside its other files, and at the default (`--jobs` twice the cores: a reference run mostly waits), as a user and CI run it (`node bin/lock-oracles.js references [--jobs 2] --json`):',
  );
  say();
  say(
    `| --jobs | entries | right | wrong | played again alone | command wall s | command CPU s | sum of run walls s | load before → after |`,
  );
  say('|---|---|---|---|---|---|---|---|---|');
  for (const jobs of ['2', String(2 * availableParallelism())]) {
    const before = load();
    const run = await timed('node', ['bin/lock-oracles.js', 'references', '--jobs', jobs, '--json']);
    const body = JSON.parse(run.stdout) as {
      right: number;
      wrong: number;
      references: Array<{ oracle: string; wallMs: number; verdict: string; crowdedAttempt?: unknown }>;
    };
    const byOracle = new Map<string, number>();
    for (const r of body.references) byOracle.set(r.oracle, (byOracle.get(r.oracle) ?? 0) + r.wallMs);
    const replayed = body.references.filter((r) => r.crowdedAttempt).length;
    const cpu = run.cpuMs === undefined ? '—' : (run.cpuMs / 1000).toFixed(1);
    say(
      `| ${jobs} | ${body.references.length} | ${body.right} | ${body.wrong} | ${replayed} | ${(run.ms / 1000).toFixed(1)} | ${cpu} | ${([...byOracle.values()].reduce((a, b) => a + b, 0) / 1000).toFixed(1)} | ${before} → ${load()} |`,
    );
    if (jobs === '2') matrixByOracle = byOracle;
  }
  say();
  say(
    `Sum of run walls per oracle at --jobs 2 (s): ${[...matrixByOracle].map(([id, ms]) => `${id} ${(ms / 1000).toFixed(1)}`).join(', ')}.`,
  );
}

if (values.write) {
  const doc = readFileSync('docs/benchmarks.md', 'utf8');
  const [start, end] = ['<!-- bench:speed -->', '<!-- /bench:speed -->'];
  const section = `${start}\n${lines.join('\n')}\n${end}`;
  const next = doc.includes(start)
    ? doc.replace(new RegExp(`${start}[\\s\\S]*${end}`), section)
    : `${doc.trimEnd()}\n\n## Speed: a verdict against the inherent wait (\`npm run bench\`)\n\n${section}\n`;
  writeFileSync('docs/benchmarks.md', next);
  console.log('\nwritten to docs/benchmarks.md');
}
