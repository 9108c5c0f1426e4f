/**
 * npm run oracle -- <ID> --target <path> [options]   run one oracle against a target
 * npm run oracle -- list [--json]                    every oracle: parameters, target members needed, references
 * npm run oracle -- references [<ID> ...] [--jobs J] the reference matrix, checked (exit 1 if wrong)
 * npm run oracle -- <ID> --help                      an oracle's parameters
 * npm run oracle -- clean [--json]                   remove what runs killed outright left behind
 * npm run oracle -- selfcheck [<ID> ...] [--runs N]   the harness checking itself (exit 1 on a wrong verdict or a leftover)
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { colourVerdict, progressPrinter } from '../run/progress.ts';
import { exitCodeFor, EXIT, expectationLine } from './exit-codes.ts';
import { loadAllOracles, loadOracle } from '../run/registry.ts';
import { UsageError } from '../core/errors.ts';
import { optionName } from '../core/params.ts';
import { runOracle } from '../run/run-oracle.ts';
import { combineRuns, type EvidenceRecord } from '../report/evidence.ts';
import { writeMultiRunReport, writeRunReport } from '../report/write-report.ts';
import { cleanupAll, handleInterrupts, interruptExitCode, interruption, onInterrupt } from '../process/cleanup.ts';
import { defaultJobs, defaultReferenceJobs } from '../run/run-pool.ts';
import { runBatch } from '../run/run-batch.ts';
import { prepareRun, RunAhead } from '../run/run-ahead.ts';
import { firstLine } from '../core/judgement.ts';
import { COMMAND } from '../core/invocation.ts';
import { checkWritableDir } from '../report/safe-write.ts';
import type { StoreKind } from '../stores/types.ts';
import { RUNTIME_CHOICES, type RuntimeChoice } from '../families/start-store.ts';
import type { OracleDefinition } from '../oracle/definition.ts';
import type { ParamSpecs } from '../core/params.ts';

const HARNESS_OPTIONS = {
  target: { type: 'string' },
  store: { type: 'string' },
  runtime: { type: 'string' },
  runs: { type: 'string' },
  jobs: { type: 'string' },
  deadline: { type: 'string' },
  expect: { type: 'string' },
  json: { type: 'boolean' },
  'report-dir': { type: 'string' },
  'no-report': { type: 'boolean' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  explore: { type: 'boolean' },
  'max-points': { type: 'string' },
  'first-fail': { type: 'boolean' },
  'emit-test': { type: 'string' },
} as const;

const MAX_RUNS = 1000;

const USAGE = `lock-oracles: prove or refute lock, lease, leader and clock bugs against real stores.

Usage:
  ${COMMAND} <ID> --target <path> [options] [--<param> <value> ...]
  ${COMMAND} <ID> --target <path> --explore [--max-points N] [--first-fail] [--jobs J] [--emit-test <file>]
  ${COMMAND} replay <schedule.json> [--target <path>] [--runs N]
  ${COMMAND} list [--json]
  ${COMMAND} references [<ID> ...] [--jobs J] [--json]   every reference target's verdict, checked
  ${COMMAND} <ID> --help
  ${COMMAND} init --client <library> --shape <with-lock|binding>   write a target for your helper (init --help)
  ${COMMAND} clean [--json]   remove temp dirs and containers of runs killed outright (SIGKILL)
  ${COMMAND} selfcheck [<ID> ...] [--runs N] [--jobs J] [--json] [--stress] [--cases <file.json>]
                       the reference matrix, each good reference with its guard removed (must FAIL) and every
                       hostile fixture, N times (--stress: a busy process per core meanwhile); exit 1 on a wrong
                       verdict or anything left behind (INCONCLUSIVE is allowed and counted)

Options:
  --target <path>      the target module binding your helper (see targets/contract.ts)
  --store <kind>       redis | valkey | postgres | pgbouncer (default: the oracle's first store)
  --runtime <name>     local | container | auto: how the store is started (default local; auto = local when
                       the store is installed here, else container when a Docker engine answers)
  --runs <N>           repeat the scenario N times (fresh store each run, at most ${MAX_RUNS}); a violation in any run
                       is FAIL; each run's evidence is written as soon as it finishes
  --jobs <J>           with --runs: up to J runs at once, each with its own store and holders (default: the
                       core count); a run INCONCLUSIVE (or past its deadline) among parallel runs is played again alone
  --deadline <ms>      longest a run may take, start-up and teardown included (default: a minute plus three
                       times the oracle's TTLs and timeouts, V319 a minute more per simulated day); past it
                       the run is ERROR naming what was pending
  --expect pass|fail   exit 0 when the verdict matches (failing-first proof of a fix)
  --json               print the evidence record on stdout (progress stays on stderr)
  --report-dir <dir>   where evidence is written (default: reports/ under the current directory)
  --no-report          write nothing
  --quiet              no progress lines: only the verdict line
  --explore            find the failing schedule: trace A's part alone, then run one scenario per point
                       (each store command / seam / write of A's stressed part × each fault that applies: held
                       before it, its reply held, A's wall clock stepped ahead / back right before it, A
                       stopped (SIGSTOP) at a write's receipt, SIGKILL after its reply), judged by the oracle's own property; FAIL if
                       any point fails (the minimal one is written to schedule.json), PASS only if every
                       point's fault landed and the property held. \`list --json\` says which oracles support it
  --max-points <N>     --explore: run at most N points (default 64); the rest are listed as skipped
  --first-fail         --explore: start no point after one FAILs (every earlier point still runs, so the
                       minimal schedule is the same); the points not started are listed
  (--jobs J also sets how many --explore points run at once, each on its own scratch store)
  --emit-test <file>   --explore: write a vitest test replaying the minimal failing schedule (expects FAIL;
                       LOCK_ORACLES_TARGET=<fixed> LOCK_ORACLES_EXPECT=PASS runs it against the fix)
  replay <schedule>    rerun one explored point exactly (--target: another target, e.g. the fixed one)
Exit codes: 0 PASS (or as expected), 1 FAIL, 2 usage error or ERROR, 3 INCONCLUSIVE,
130/143 interrupted by SIGINT/SIGTERM (everything stopped, an INTERRUPTED record written).`;

/** `<command> --help` prints these on stdout and exits 0 (settle, init, selfcheck and prove print their own). */
const SUB_COMMAND_USAGE: Record<string, () => Promise<string> | string> = {
  references: async () => (await import('./commands/references.ts')).REFERENCES_USAGE,
  selfcheck: async () => (await import('./commands/selfcheck.ts')).SELFCHECK_USAGE,
  list: () => `Usage: ${COMMAND} list [--json]
Every oracle: its parameters, the target members it needs, its references (--json: one JSON document).`,
  clean: () => `Usage: ${COMMAND} clean [--json]
Removes what runs killed outright (SIGKILL) left behind: their temp dirs, SysV shared memory and store
containers; never anything of a run still going.`,
  replay: () => `Usage: ${COMMAND} replay <schedule.json> [--target <path>] [--runs N] [--expect pass|fail] [--json]
Reruns one explored point exactly (the schedule.json an --explore run wrote); --target: another target, e.g. the fixed one.`,
};

// Each sub-command is imported when it is asked for: a plain run loads none of them (start-up
// time, docs/benchmarks.md).
async function main(argv: string[]): Promise<number> {
  handleInterrupts();
  if (argv[0] === 'settle') return (await import('./commands/settle.ts')).settleCommand(argv.slice(1));
  if (argv[0] === 'init') return (await import('./commands/init.ts')).init(argv.slice(1));
  if (argv[0] === 'selfcheck') return (await import('./commands/selfcheck.ts')).selfcheckCommand(argv.slice(1));
  const { values, positionals, extra } = parse(argv);
  const command = positionals[0];
  if (!command) {
    // Asked for, the usage is the answer (stdout); as a correction to a bare call it goes to stderr.
    (values.help ? process.stdout : process.stderr).write(`${USAGE}\n`);
    return values.help ? EXIT.PASS : EXIT.USAGE;
  }
  const subUsage = SUB_COMMAND_USAGE[command];
  if (values.help && subUsage) {
    process.stdout.write(`${await subUsage()}\n`);
    return EXIT.PASS;
  }
  if (command === 'references') {
    const reportDir = values['report-dir'] === undefined ? undefined : resolve(values['report-dir']);
    if (reportDir) {
      try {
        checkWritableDir(reportDir);
      } catch (error) {
        throw new UsageError(`--report-dir: ${(error as Error).message}. Give a writable directory, or --no-report.`);
      }
    }
    return (await import('./commands/references.ts')).referencesCommand(positionals.slice(1), {
      jobs: wholeNumber('--jobs', values.jobs, defaultReferenceJobs(), 1, 64),
      json: values.json === true,
      progress: progressPrinter(!values.quiet),
      ...(reportDir ? { reportDir } : {}),
      noReport: values['no-report'] === true,
    });
  }
  if (command === 'prove')
    return (await import('./commands/prove.ts')).proveCommand(positionals.slice(1), values, extra);
  if (command === 'replay')
    return (await import('./commands/replay.ts')).replayCommand({
      schedulePath: positionals[1],
      ...common(values),
      ...(values.target ? { target: values.target } : {}),
      ...(values.runs ? { runs: values.runs } : {}),
    });
  refuseExtraArguments(positionals.slice(1));
  if (command === 'list') return list(values.json === true);
  if (command === 'clean') return (await import('./commands/clean.ts')).clean(values.json === true);
  const oracle = await loadOracle(command);
  if (values.help) {
    process.stdout.write(describe(oracle));
    return EXIT.PASS;
  }
  refuseUnknownOptions(oracle, Object.keys(extra));
  if (!values.target)
    throw new UsageError(
      `${oracle.id}: --target <path> is required (e.g. --target ${oracle.references[0]?.target ?? 'targets/...'})`,
    );
  const runs = wholeNumber('--runs', values.runs, 1, 1, MAX_RUNS);
  const jobs = wholeNumber('--jobs', values.jobs, defaultJobs(), 1, 64);
  const deadlineMs =
    values.deadline === undefined ? undefined : wholeNumber('--deadline', values.deadline, 0, 100, 3_600_000);
  const expect = values.expect?.toLowerCase();
  if (expect !== undefined && expect !== 'pass' && expect !== 'fail')
    throw new UsageError(`--expect must be pass or fail, got "${values.expect}"`);
  const runtime = values.runtime ?? 'local';
  if (!(RUNTIME_CHOICES as readonly string[]).includes(runtime))
    throw new UsageError(`--runtime must be ${RUNTIME_CHOICES.join(', ')}, got "${runtime}"`);
  const progress = progressPrinter(!values.quiet);
  const reportDir = values['no-report'] ? undefined : resolve(values['report-dir'] ?? 'reports');
  if (reportDir) {
    try {
      checkWritableDir(reportDir);
    } catch (error) {
      throw new UsageError(`--report-dir: ${(error as Error).message}. Give a writable directory, or --no-report.`);
    }
  }
  if (values.explore) {
    if (runs > 1)
      throw new UsageError(
        '--explore runs every point once; --runs repeats one schedule (replay a found schedule with --runs instead)',
      );
    return (await import('./commands/explore.ts')).exploreCommand({
      oracle: oracle.id,
      target: values.target,
      params: extra,
      ...(values.store ? { store: values.store as StoreKind } : {}),
      ...common(values),
      runtime: runtime as RuntimeChoice,
      ...(values['max-points'] ? { maxPoints: values['max-points'] } : {}),
      ...(values['first-fail'] ? { firstFail: true } : {}),
      ...(values.jobs ? { jobs: values.jobs } : {}),
      ...(values['emit-test'] ? { emitTest: values['emit-test'] } : {}),
    });
  }

  // SIGINT/SIGTERM: the runs in progress stop everything and return INTERRUPTED records.
  const stop = new AbortController();
  onInterrupt((signal) => stop.abort(signal));
  const dirs = new Map<number, string>();
  const unwritten: string[] = [];
  const save = (write: () => string) => {
    try {
      return write();
    } catch (error) {
      unwritten.push((error as Error).message);
      return undefined;
    }
  };
  const runIndexes = Array.from({ length: runs }, (_, i) => i);
  const onReplay = (index: number, crowded: EvidenceRecord) =>
    progress(
      `run ${index + 1}/${runs} was INCONCLUSIVE among ${Math.min(jobs, runs)} parallel runs (${firstLine(crowded.explanation)}); playing it again alone`,
    );
  // The next run's holders load while a run plays (src/run/run-ahead.ts).
  const ahead = runs > 1 ? new RunAhead(runs, () => prepareRun(resolve(values.target!), oracle.holders)) : undefined;
  const records = await runBatch(runIndexes, { jobs, onReplay }, async (index) => {
    const tag = runs > 1 ? `run ${index + 1}/${runs}: ` : '';
    const prepared = await ahead?.take();
    const record = await runOracle({
      ...(prepared ? { prepared } : {}),
      ...(ahead ? { onHoldersReady: () => ahead.holdersReady() } : {}),
      oracle: oracle.id,
      target: values.target!,
      params: extra,
      ...(values.store ? { store: values.store as StoreKind } : {}),
      runtime: runtime as RuntimeChoice,
      progress: (message) => progress(`${tag}${message}`),
      ...(deadlineMs ? { deadlineMs } : {}),
      stop: stop.signal,
    });
    // Each run's evidence is written as soon as it finishes: an interrupted batch keeps what it did.
    const dir = reportDir ? save(() => writeRunReport(record, reportDir)) : undefined;
    if (dir) dirs.set(index, dir);
    progress(
      `${tag}${record.oracle.id} ${colourVerdict(record.verdict)} — ${record.property?.detail ?? firstLine(record.explanation)}`,
    );
    return record;
  }).finally(() => ahead?.discard());
  const combined = runs > 1 ? combineRuns(records) : undefined;
  const verdict = combined?.verdict ?? records[0]!.verdict;
  const runDirs = [...dirs.entries()].sort(([a], [b]) => a - b).map(([, dir]) => dir);
  const written = combined && reportDir ? save(() => writeMultiRunReport(combined, reportDir, runDirs)) : runDirs[0];
  if (values.json) process.stdout.write(`${JSON.stringify(combined ?? records[0], null, 2)}\n`);
  summarize(verdict, combined?.explanation ?? records[0]!.explanation, written, values.quiet === true);
  process.stderr.write(expectationLine(verdict, expect as 'pass' | 'fail' | undefined));
  // The verdict stands when its evidence could not be written: say so loudly, keep its exit code.
  for (const problem of unwritten)
    process.stderr.write(`warning: the verdict stands, but its evidence was not written: ${problem}\n`);
  const signal = interruption();
  if (signal) return interruptExitCode(signal);
  return exitCodeFor(verdict, expect as 'pass' | 'fail' | undefined);
}

function wholeNumber(option: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  const value = raw === undefined ? fallback : /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new UsageError(`${option} must be a whole number from ${min} to ${max}, got "${raw}"`);
  return value;
}

/** Harness options by name; any other `--name value` is an oracle parameter. */
function parse(argv: string[]) {
  const { values, positionals, tokens } = parseArgs({
    args: argv,
    options: HARNESS_OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const extra: Record<string, string> = {};
  const consumed = new Set<number>();
  for (const token of tokens ?? []) {
    if (token.kind !== 'option' || token.name in HARNESS_OPTIONS || consumed.has(token.index)) continue;
    const name = token.name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    let value = token.value;
    if (value === undefined) {
      const next = tokens?.find((t) => t.index === token.index + 1);
      if (next?.kind === 'positional') {
        value = next.value;
        consumed.add(next.index);
      } else if (next?.kind === 'option' && /^-\d/.test(next.rawName)) {
        value = next.rawName; // a negative number, e.g. --ttl -5
        consumed.add(next.index);
      }
    }
    if (value === undefined) throw new UsageError(`${token.rawName} needs a value (e.g. ${token.rawName} 300)`);
    extra[name] = value;
  }
  const seen = new Set<string>();
  for (const token of tokens ?? []) {
    if (token.kind !== 'option' || consumed.has(token.index)) continue;
    if (seen.has(token.name))
      throw new UsageError(
        `${token.rawName} is given more than once: give each option once (which one was meant is not for the harness to guess)`,
      );
    seen.add(token.name);
  }
  const free = (tokens ?? [])
    .filter((t) => t.kind === 'positional' && !consumed.has(t.index))
    .map((t) => (t as { value: string }).value);
  return {
    values: values as {
      [K in keyof typeof HARNESS_OPTIONS]?: (typeof HARNESS_OPTIONS)[K]['type'] extends 'string' ? string : boolean;
    },
    positionals: free.length ? free : positionals,
    extra,
  };
}

function refuseExtraArguments(extra: string[]): void {
  if (extra.length)
    throw new UsageError(
      `unexpected argument(s) ${extra.map((a) => JSON.stringify(a)).join(' ')}: options take the form --name value (see --help)`,
    );
}

/** Any --name that is neither a harness option nor one of the oracle's parameters, named with the nearest known one. */
function refuseUnknownOptions(oracle: OracleDefinition<ParamSpecs>, names: string[]): void {
  const known = [...Object.keys(HARNESS_OPTIONS).map((n) => `--${n}`), ...Object.keys(oracle.params).map(optionName)];
  for (const name of names) {
    if (name in oracle.params) continue;
    const option = optionName(name);
    const nearest = known.map((k) => ({ k, d: editDistance(k, option) })).sort((x, y) => x.d - y.d)[0];
    const hint = nearest && nearest.d <= 2 ? ` (did you mean ${nearest.k}?)` : '';
    throw new UsageError(
      `unknown option ${option}${hint}. ${oracle.id} takes the harness options (--help) and: ${Object.keys(oracle.params).map(optionName).join(', ')}`,
    );
  }
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** The options explore and replay share with a plain run. */
function common(values: ReturnType<typeof parse>['values']) {
  const expect = values.expect?.toLowerCase();
  if (expect !== undefined && expect !== 'pass' && expect !== 'fail')
    throw new UsageError(`--expect must be pass or fail, got "${values.expect}"`);
  const runtime = values.runtime ?? 'local';
  if (!(RUNTIME_CHOICES as readonly string[]).includes(runtime))
    throw new UsageError(`--runtime must be ${RUNTIME_CHOICES.join(', ')}, got "${runtime}"`);
  return {
    runtime: runtime as RuntimeChoice,
    ...(expect ? { expect: expect as 'pass' | 'fail' } : {}),
    json: values.json === true,
    ...(values['report-dir'] ? { reportDir: values['report-dir'] } : {}),
    noReport: values['no-report'] === true,
    quiet: values.quiet === true,
    progress: progressPrinter(!values.quiet),
  };
}

async function list(json: boolean): Promise<number> {
  const oracles = await loadAllOracles();
  if (json) {
    const body = {
      oracles: oracles.map((o) => ({
        id: o.id,
        title: o.title,
        class: o.class,
        scenario: o.scenario,
        property: o.property,
        stores: o.stores,
        params: o.params,
        needs: needsAtDefaults(o),
        targets: {
          bad: [...new Set(o.references.filter((r) => r.expect === 'FAIL' || r.knownBad).map((r) => r.target))],
          good: [...new Set(o.references.filter((r) => r.expect === 'PASS' && !r.knownBad).map((r) => r.target))],
        },
        references: o.references,
        explore: o.explore
          ? {
              supported: true,
              part: o.explore.part,
              faults: o.explore.faults,
              params: o.explore.params,
              doc: o.explore.doc,
            }
          : { supported: false },
      })),
    };
    process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    return EXIT.PASS;
  }
  process.stdout.write(oracles.map(describe).join('\n'));
  return EXIT.PASS;
}

/** The target members the oracle calls with its default parameters. */
function needsAtDefaults(o: OracleDefinition<ParamSpecs>): string[] {
  return o.needs(Object.fromEntries(Object.entries(o.params).map(([k, s]) => [k, s.default])) as never);
}

function describe(o: OracleDefinition<ParamSpecs>): string {
  const params = Object.entries(o.params).map(([name, spec]) => {
    const range = spec.kind === 'choice' ? ` (${spec.choices.join(' | ')})` : '';
    return `  ${optionName(name).padEnd(16)} ${spec.doc}${range}; default ${spec.default}`;
  });
  const refs = o.references.map((r) => {
    const options = [
      ...(r.store ? [`--store ${r.store}`] : []),
      ...Object.entries(r.params ?? {}).map(([k, v]) => `${optionName(k)} ${v}`),
    ];
    const missed = r.knownBad ? `\n        (a bad target this schedule misses: ${r.knownBad})` : '';
    return `  ${r.expect.padEnd(5)} ${r.target}${options.length ? ` ${options.join(' ')}` : ''}${missed}`;
  });
  return [
    `${o.id} — ${o.title}`,
    `Class:     ${o.class}`,
    `Scenario:  ${o.scenario}`,
    `Property:  ${o.property}`,
    `Stores:    ${o.stores.join(', ')}`,
    `Needs:     target members ${needsAtDefaults(o).join(', ')}`,
    'Parameters:',
    ...params,
    o.explore
      ? `--explore:  ${o.explore.doc} (faults: ${o.explore.faults.join(', ')}; every point runs with ${
          Object.entries(o.explore.params)
            .map(([k, v]) => `${optionName(k)} ${v}`)
            .join(' ') || 'the defaults'
        })`
      : '--explore:  not supported by this oracle yet',
    'Reference targets (expected verdict):',
    ...refs,
    '',
  ].join('\n');
}

/** The verdict line, always (with --quiet: that line alone, the explanation's first line). */
function summarize(verdict: string, explanation: string, written: string | undefined, quiet: boolean): void {
  if (quiet) {
    process.stderr.write(`${colourVerdict(verdict as never)}  ${explanation.split('\n')[0]}\n`);
    return;
  }
  process.stderr.write(
    `\n${colourVerdict(verdict as never)}  ${explanation}\n${written ? `Evidence: ${written}/\n` : ''}`,
  );
}

/**
 * Resolves once what was written to stdout has been handed to the OS: process.exit drops what a
 * pipe has not taken yet, e.g. a --json record past the pipe's 64 KiB when its reader is slow.
 */
function stdoutWritten(): Promise<void> {
  return new Promise((resolve) => process.stdout.write('', () => resolve()));
}

// Exit explicitly once everything the run started is stopped: a socket still closing somewhere
// must not keep a finished verdict from returning its exit code.
main(process.argv.slice(2))
  .then(async (code) => {
    await cleanupAll();
    await stdoutWritten();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    await cleanupAll();
    // A SIGINT/SIGTERM to the whole process group also reaches the holders and store servers, so
    // the run may break on their deaths: that is the interruption, and it exits as one.
    const signal = interruption();
    if (signal) {
      process.stderr.write(`interrupted by ${signal}: ${(error as Error)?.message?.split('\n')[0] ?? String(error)}\n`);
      process.exit(interruptExitCode(signal));
    }
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n`);
    } else {
      process.stderr.write(`error: the harness broke: ${(error as Error)?.stack ?? String(error)}\n`);
    }
    process.exit(EXIT.USAGE);
  });
