/**
 * Every option of the harness's own, declared once: its argument, its kind (how its text becomes a
 * value) and, for each command that takes it, what it does there, its default and its limit. The
 * parser (parse.ts) and every `--help` text (help.ts) are built from this table, as vitest builds
 * both from its `cli-config.ts`. An oracle's parameters are not here: each oracle declares its own
 * (`params`, src/core/params.ts), and a run or a proof takes them beside these.
 */
import { defaultJobs, defaultReferenceJobs } from '../../run/run-pool.ts';
import { RUNTIME_CHOICES } from '../../stores/runtime-choice.ts';
import { HOLDER_LANGUAGES } from '../../holder/holder-language.ts';

/** The commands: `run` is `<ID> --target …` (with `--explore`, an exploration), the rest are sub-commands. */
export const COMMAND_NAMES = [
  'run',
  'replay',
  'list',
  'references',
  'clean',
  'selfcheck',
  'settle',
  'init',
  'prove',
  'conformance',
] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/** How an option's text becomes its value; the error for a bad one names the option and the text. */
export type Kind =
  | { type: 'flag' }
  | { type: 'text' }
  | { type: 'whole'; min: number }
  | { type: 'choice'; choices: readonly string[]; anyCase?: true };

/** A default worked out when the command runs (the core count), shown in the help by what it is. */
export interface ComputedDefault {
  compute: () => number;
  shown: string;
}

/** What an option does for one command. */
export interface Use {
  doc: string;
  default?: string | number | ComputedDefault;
  /** For a whole number: the largest accepted. */
  max?: number;
}

export interface OptionSpec {
  /** The argument as the help shows it (`<N>`); a flag has none. */
  arg?: string;
  short?: string;
  kind: Kind;
  /** The commands that take the option, each with its own doc, default and limit. */
  for: Partial<Record<CommandName, Use>>;
}

export const CLIENTS = ['ioredis', 'node-redis', 'redlock', '@sesamecare-oss/redlock', 'pg', 'redis-py'] as const;
export const SHAPES = ['with-lock', 'binding'] as const;
export const SCOPES = ['session', 'transaction', 'session-via-pool'] as const;
export const FAIL_ON = ['confirmed', 'unconfirmed', 'never'] as const;
export const EXPECT = ['pass', 'fail'] as const;

const CORES: ComputedDefault = { compute: defaultJobs, shown: 'the core count' };
const EVERY_COMMAND = Object.fromEntries(COMMAND_NAMES.map((c) => [c, { doc: 'print this help and exit' }])) as Record<
  CommandName,
  Use
>;

export const OPTIONS = {
  target: {
    arg: '<path>',
    kind: { type: 'text' },
    for: {
      run: { doc: 'the target module binding your helper (see targets/contract.ts)' },
      conformance: { doc: 'a target in the language whose shim to check (e.g. sdk/python/conformance_target.py)' },
      replay: { doc: 'run the schedule against another target, e.g. the fixed one (default: the one it was found on)' },
      prove: { doc: 'the target both --before-ref and --after-ref sides run (a path in the repository)' },
    },
  },
  lang: {
    arg: '<language>',
    kind: { type: 'choice', choices: HOLDER_LANGUAGES },
    for: {
      run: {
        doc: "the target's language when its extension does not say (node | python | java | go; .py, .java and .go say it, the rest is node)",
      },
      init: {
        doc: 'the language of the target to write: node (TypeScript, default) | python | java | go',
        default: 'node',
      },
      conformance: { doc: "the target's language when its extension does not say" },
    },
  },
  python: {
    arg: '<path>',
    kind: { type: 'text' },
    for: {
      run: {
        doc:
          "the Python interpreter a .py target's holders run with (a venv's bin/python works); default: an active " +
          "venv's, else /usr/bin/python3, else python3 on PATH",
      },
      conformance: { doc: 'the Python interpreter the shim runs with' },
    },
  },
  store: {
    arg: '<kind>',
    kind: { type: 'text' },
    for: {
      run: {
        doc:
          "redis | valkey | postgres | pgbouncer (default: the first of the oracle's stores whose client the target " +
          "imports, else the oracle's first store)",
      },
      prove: { doc: 'as for one oracle' },
    },
  },
  topology: {
    arg: '<shape>',
    kind: { type: 'text' },
    for: {
      run: {
        doc:
          'redis / valkey only: single (default) | replicated[:R] (a master and R replicas, replication through the ' +
          "harness's relay) | sentinel[:R] (replicated plus three Sentinels) | redlock[:N] (N independent masters, default 5); " +
          'with --runtime container every node runs in its own container. etcd[:N] with --store etcd, zookeeper[:N] with ' +
          '--store zookeeper: a cluster or ensemble of N members (odd, default 3; with --runtime container one container each), holder A on m1, B on m2, …',
      },
    },
  },
  runtime: {
    arg: '<name>',
    kind: { type: 'choice', choices: RUNTIME_CHOICES },
    for: {
      run: {
        doc:
          'how the store is started: local | container | auto (auto = local when the store is installed here, ' +
          'else container when a Docker engine answers)',
        default: 'local',
      },
      replay: { doc: 'local | container | auto, as for one oracle', default: 'local' },
      settle: { doc: 'local | container | auto, as for one oracle', default: 'local' },
      prove: { doc: 'local | container | auto, as for one oracle' },
    },
  },
  classpath: {
    arg: '<jar:jar…>',
    kind: { type: 'text' },
    for: {
      run: {
        doc:
          "a Java target's classpath beyond its own //CLASSPATH lines, colon-separated " +
          '(e.g. /usr/share/java/postgresql.jar)',
      },
    },
  },
  runs: {
    arg: '<N>',
    kind: { type: 'whole', min: 1 },
    for: {
      run: {
        doc:
          'repeat the scenario N times (fresh store each run); a violation in any run is FAIL; ' +
          "each run's evidence is written as soon as it finishes",
        default: 1,
        max: 1000,
      },
      replay: { doc: 'replay the point N times', default: 1 },
      selfcheck: { doc: 'play every case N times', default: 1, max: 100 },
      settle: { doc: 'runs per row × oracle, each on a fresh store (Refuted needs every one to PASS)', default: 1 },
      prove: {
        doc: 'runs per side; the proof is valid only if every before-run FAILs and every after-run PASSes',
        default: 5,
      },
    },
  },
  jobs: {
    arg: '<J>',
    kind: { type: 'whole', min: 1 },
    for: {
      run: {
        doc:
          'with --runs: up to J runs at once, each with its own store and holders; a run INCONCLUSIVE (or past its ' +
          'deadline) among parallel runs is played again alone. With --explore: at least J points at once, each on ' +
          'its own scratch store, and up to 16 × J while the CPU has room (a point INCONCLUSIVE among others is played again alone)',
        default: CORES,
        max: 64,
      },
      references: {
        doc: 'up to J runs at once (a reference run mostly waits); an INCONCLUSIVE among parallel runs is played again alone',
        default: { compute: defaultReferenceJobs, shown: 'twice the core count' },
        max: 64,
      },
      selfcheck: { doc: 'up to J runs at once', default: CORES, max: 64 },
      settle: { doc: 'rows in flight at once, each on its own store', default: CORES },
    },
  },
  deadline: {
    arg: '<ms>',
    kind: { type: 'whole', min: 100 },
    for: {
      run: {
        doc:
          "longest a run may take, start-up and teardown included (default: a minute plus three times the oracle's " +
          'TTLs and timeouts, V319 a minute more per simulated day); past it the run is ERROR naming what was pending',
        max: 3_600_000,
      },
    },
  },
  expect: {
    arg: 'pass|fail',
    kind: { type: 'choice', choices: EXPECT, anyCase: true },
    for: {
      run: { doc: 'exit 0 when the verdict matches (failing-first proof of a fix)' },
      replay: { doc: 'exit 0 when the verdict matches' },
    },
  },
  json: {
    kind: { type: 'flag' },
    for: {
      run: { doc: 'print the evidence record on stdout (progress stays on stderr)' },
      replay: { doc: 'print the evidence record on stdout' },
      list: { doc: 'one JSON document on stdout' },
      clean: { doc: '{"removed":[…],"failed":[…]} on stdout' },
      references: { doc: 'one JSON document on stdout (progress stays on stderr)' },
      selfcheck: { doc: '{"matrix":[…],"wrong":…,"inconclusive":…,"errors":…,"leftovers":[…]} on stdout' },
    },
  },
  'report-dir': {
    arg: '<dir>',
    kind: { type: 'text' },
    for: {
      run: { doc: 'where evidence is written', default: 'reports' },
      replay: { doc: 'where evidence is written', default: 'reports' },
      references: {
        doc:
          'keep the evidence of every wrong and every INCONCLUSIVE entry there ' +
          "(default: a wrong entry's evidence goes to a fresh temp dir, named in the output)",
      },
      selfcheck: {
        doc:
          'keep the evidence of every wrong, ERROR and INCONCLUSIVE row there ' +
          "(default: wrong and ERROR rows' evidence goes to a fresh temp dir, named in the output)",
      },
      settle: { doc: "where each run's evidence goes", default: 'reports' },
    },
  },
  'no-report': {
    kind: { type: 'flag' },
    for: {
      run: { doc: 'write nothing' },
      replay: { doc: 'write nothing' },
      references: { doc: 'keep no evidence' },
      selfcheck: { doc: 'keep no evidence' },
      settle: { doc: 'write no evidence' },
    },
  },
  quiet: {
    kind: { type: 'flag' },
    for: {
      run: { doc: 'no progress lines: only the verdict line' },
      replay: { doc: 'no progress lines: only the verdict line' },
      references: { doc: 'no progress lines' },
      selfcheck: { doc: 'no progress lines' },
      settle: { doc: 'no progress lines' },
      prove: { doc: 'no progress lines' },
    },
  },
  explore: {
    kind: { type: 'flag' },
    for: {
      run: {
        doc:
          "find the failing schedule: trace A's part alone, then run one scenario per point (each store command / " +
          "seam / write of A's stressed part × each fault that applies: held before it, its reply held, A's wall " +
          "clock stepped ahead / back right before it, A stopped (SIGSTOP) at a write's receipt, SIGKILL after its " +
          "reply), judged by the oracle's own property; FAIL if any point fails (the minimal one is written to " +
          "schedule.json), PASS only if every point's fault landed and the property held. `list --json` says which " +
          'oracles support it',
      },
      settle: {
        doc:
          'run each oracle that supports it explored (every command boundary of A × every fault, as <ID> --explore) ' +
          'instead of its one schedule; a row\'s "explore": true|false wins. A Refuted row says how much was tried: ' +
          '"one schedule" (weaker) or "explored N points"',
      },
    },
  },
  'max-points': {
    arg: '<N>',
    kind: { type: 'whole', min: 1 },
    for: { run: { doc: '--explore: run at most N points (default 64); the rest are listed as skipped' } },
  },
  'first-fail': {
    kind: { type: 'flag' },
    for: {
      run: {
        doc:
          '--explore: start no point after one FAILs (every earlier point still runs, so the minimal schedule is the ' +
          'same); the points not started are listed. Keeps to --jobs points at once',
      },
    },
  },
  'emit-test': {
    arg: '<file>',
    kind: { type: 'text' },
    for: {
      run: {
        doc:
          '--explore: write a vitest test replaying the minimal failing schedule (expects FAIL; ' +
          'LOCK_ORACLES_TARGET=<fixed> LOCK_ORACLES_EXPECT=PASS runs it against the fix)',
      },
    },
  },
  stress: {
    kind: { type: 'flag' },
    for: {
      selfcheck: {
        doc: 'a busy process per core for the whole selfcheck (INCONCLUSIVE allowed, never a wrong verdict)',
      },
    },
  },
  cases: {
    arg: '<file.json>',
    kind: { type: 'text' },
    for: {
      selfcheck: { doc: 'play these cases instead: [{"oracle","target","expect","params"?,"store"?,"deadlineMs"?}]' },
    },
  },
  client: {
    arg: '<library>',
    kind: { type: 'choice', choices: CLIENTS },
    for: { init: { doc: CLIENTS.join(' | ') } },
  },
  shape: {
    arg: '<shape>',
    kind: { type: 'choice', choices: SHAPES },
    for: {
      init: {
        doc:
          'with-lock: your withLock(client, key, ttlMs, fn) helper (needs --helper); binding: the ready binding for ' +
          'the library (ioredis/node-redis: SET NX PX + compare-and-delete; redlock: acquire/release/extend and ' +
          'using(); pg: advisory lock, --scope)',
      },
    },
  },
  helper: {
    arg: '<path>',
    kind: { type: 'text' },
    for: { init: { doc: '--shape with-lock: the module that exports your withLock' } },
  },
  export: {
    arg: '<name>',
    kind: { type: 'text' },
    for: { init: { doc: "--shape with-lock: the helper's export", default: 'withLock' } },
  },
  scope: {
    arg: '<scope>',
    kind: { type: 'choice', choices: SCOPES },
    for: { init: { doc: `--client pg: ${SCOPES.join(' | ')}`, default: 'session' } },
  },
  force: {
    kind: { type: 'flag' },
    for: { init: { doc: 'overwrite the --out file' } },
  },
  out: {
    arg: '<file>',
    kind: { type: 'text' },
    for: {
      settle: { doc: 'the rows file back with status (Confirmed | Refuted | Unconfirmed) and evidence per row' },
      init: { doc: 'where to write the target; --force overwrites', default: 'lock.target.ts' },
    },
  },
  junit: {
    arg: '<file>',
    kind: { type: 'text' },
    for: { settle: { doc: 'JUnit XML: one testcase per row × oracle (Confirmed = failure, Unconfirmed = skipped)' } },
  },
  'fail-on': {
    arg: '<what>',
    kind: { type: 'choice', choices: FAIL_ON },
    for: {
      settle: {
        doc: 'when to exit 1: confirmed | unconfirmed (Confirmed or Unconfirmed) | never',
        default: 'confirmed',
      },
    },
  },
  shard: {
    arg: '<i/n>',
    kind: { type: 'text' },
    for: { settle: { doc: 'only rows i, i+n, … of the file (for a CI matrix; join with settle merge)' } },
  },
  before: {
    arg: '<target>',
    kind: { type: 'text' },
    for: { prove: { doc: 'the target before the fix (must FAIL every run)' } },
  },
  after: {
    arg: '<target>',
    kind: { type: 'text' },
    for: { prove: { doc: 'the target after the fix (must PASS every run)' } },
  },
  'before-ref': {
    arg: '<ref>',
    kind: { type: 'text' },
    for: { prove: { doc: 'the git ref before the fix, checked out in a temporary worktree' } },
  },
  'after-ref': {
    arg: '<ref>',
    kind: { type: 'text' },
    for: { prove: { doc: 'the git ref after the fix (default: the working tree)' } },
  },
  'out-dir': {
    arg: '<dir>',
    kind: { type: 'text' },
    for: {
      prove: { doc: "where proof.md, proof.json and both sides' evidence go (default reports/proof-<time>-<ID>)" },
    },
  },
  help: { short: 'h', kind: { type: 'flag' }, for: EVERY_COMMAND },
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;
