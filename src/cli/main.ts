/**
 * The CLI: finds the command in the command line, parses its options by the option table
 * (src/cli/options/) and hands them to the command, each loaded when it is asked for: a plain run
 * loads none of the others, and `--help` loads no command (start-up time, docs/benchmarks.md). `--help` alone prints every
 * command; `<command> --help` its own options; `<ID> --help` an oracle's parameters.
 *
 *   npm run oracle -- <ID> --target <path> [options]   run one oracle against a target
 *   npm run oracle -- list | references | selfcheck | clean | replay | settle | init | prove ...
 */
import { EXIT } from './exit-codes.ts';
import { UsageError } from '../core/errors.ts';
import { cleanupAll, handleInterrupts, interruptExitCode, interruption } from '../process/cleanup.ts';
import { commandHelp, overview } from './options/help.ts';
import { commandOf, parseCommand } from './options/parse.ts';
import type { CommandName } from './options/table.ts';
import type { Values } from './options/values.ts';

/** What a command is given: its options' values, its free arguments and any oracle parameters. */
interface Given<C extends CommandName> {
  /** The command's own name as typed: for a run, the oracle id. */
  word: string;
  args: string[];
  values: Values<C>;
  params: Record<string, string>;
}

const RUN: { [C in CommandName]: (given: Given<C>) => Promise<number> } = {
  run: async (g) => (await import('./commands/run.ts')).runCommand(g.word, g.values, g.params),
  replay: async (g) => (await import('./commands/replay.ts')).replayCommand(g.args, g.values),
  list: async (g) => (await import('./commands/list.ts')).list(g.values),
  references: async (g) => (await import('./commands/references.ts')).referencesCommand(g.args, g.values),
  clean: async (g) => (await import('./commands/clean.ts')).clean(g.values),
  selfcheck: async (g) => (await import('./commands/selfcheck.ts')).selfcheckCommand(g.args, g.values),
  settle: async (g) => (await import('./commands/settle.ts')).settleCommand(g.args, g.values),
  init: async (g) => (await import('./commands/init.ts')).init(g.values),
  prove: async (g) => (await import('./commands/prove.ts')).proveCommand(g.args, g.values, g.params),
  conformance: async (g) => (await import('./commands/conformance.ts')).conformanceCommand(g.values),
};

async function main(argv: string[]): Promise<number> {
  handleInterrupts();
  const command = commandOf(argv);
  if (!command) {
    // Asked for, the usage is the answer (stdout); as a correction to a bare call it goes to stderr.
    const asked = argv.includes('--help') || argv.includes('-h');
    (asked ? process.stdout : process.stderr).write(`${overview()}\n`);
    return asked ? EXIT.PASS : EXIT.USAGE;
  }
  return dispatch(command, argv);
}

async function dispatch<C extends CommandName>(command: C, argv: string[]): Promise<number> {
  const parsed = parseCommand(command, argv);
  const [word = '', ...args] = parsed.args;
  if (parsed.help) {
    const help =
      command === 'run'
        ? await (await import('./commands/list.ts')).describeOracle(word)
        : `${commandHelp(command as Exclude<CommandName, 'run'>)}\n`;
    process.stdout.write(help);
    return EXIT.PASS;
  }
  const run: (given: Given<C>) => Promise<number> = RUN[command];
  return run({ word, args, values: parsed.values, params: parsed.params });
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
