/**
 * The commands as the help tells them: their forms, a line for the overview (`--help`), what they
 * do and how they exit, and what they take besides the options of the table (table.ts): free
 * arguments, and an oracle's parameters (`--ttl 300`, declared by each oracle).
 */
import type { CommandName } from './table.ts';

export interface CommandSpec {
  /** Each form of the command line, after the command's own name (`npm run oracle --`). */
  forms: string[];
  /** One line for the overview that `--help` prints. */
  summary: string;
  /** What the command's own `--help` says under its forms. */
  about?: string;
  /** What the help says after the options: outputs, exit codes. */
  footer?: string;
  /** Whether it takes free arguments (oracle ids, files) after its name. */
  arguments: boolean;
  /** Whether any other `--name value` is an oracle parameter. */
  params: boolean;
}

export const COMMANDS: Record<CommandName, CommandSpec> = {
  run: {
    forms: [
      '<ID> --target <path> [options] [--<param> <value> ...]',
      '<ID> --target <path> --explore [--max-points N] [--first-fail] [--jobs J] [--emit-test <file>]',
      '<ID> --help',
    ],
    summary: 'run one oracle against a target (--explore: find the failing schedule); <ID> --help: its parameters',
    footer:
      'Exit codes: 0 PASS (or as expected), 1 FAIL, 2 usage error or ERROR, 3 INCONCLUSIVE,\n' +
      '130/143 interrupted by SIGINT/SIGTERM (everything stopped, an INTERRUPTED record written).',
    arguments: false,
    params: true,
  },
  replay: {
    forms: ['replay <schedule.json> [--target <path>] [options]'],
    summary: 'rerun one explored point exactly (--target: another target, e.g. the fixed one)',
    about:
      'Reruns one explored point exactly (the schedule.json an --explore run wrote); --target: another target, ' +
      'e.g. the fixed one.',
    arguments: true,
    params: false,
  },
  list: {
    forms: ['list [--json]'],
    summary: 'every oracle: parameters, target members needed, references',
    about: 'Every oracle: its parameters, the target members it needs, its references.',
    arguments: false,
    params: false,
  },
  references: {
    forms: ['references [<ID> ...] [options]'],
    summary: "every reference target's verdict, checked (exit 1 if wrong)",
    about:
      'Runs every reference target of the oracles named (default all; Redis ones on Valkey too), each checked ' +
      'against its expected verdict and the evidence that verdict needs; exit 1 when any is wrong.',
    arguments: true,
    params: false,
  },
  clean: {
    forms: ['clean [--json]'],
    summary: 'remove temp dirs and containers of runs killed outright (SIGKILL)',
    about:
      'Removes what runs killed outright (SIGKILL) left behind: their temp dirs, SysV shared memory and store ' +
      'containers; never anything of a run still going.',
    arguments: false,
    params: false,
  },
  selfcheck: {
    forms: ['selfcheck [<ID> ...] [options]'],
    summary:
      'the harness checking itself: the reference matrix, each good reference with its guard removed (must FAIL) ' +
      'and every hostile fixture, N times; exit 1 on a wrong verdict or anything left behind',
    about:
      'The harness checking itself: the reference matrix, each good reference with its guard removed (must FAIL) ' +
      'and every hostile fixture, N times; exit 1 on a wrong verdict or anything left behind (INCONCLUSIVE is ' +
      'allowed and counted).',
    arguments: true,
    params: false,
  },
  settle: {
    forms: [
      "settle <rows.json> [options]      run every row's oracle(s) and write the rows back settled",
      'settle merge <a.json> <b.json>…   join the outputs of --shard runs into one',
    ],
    summary: "settle a scanner's rows file: each row Confirmed, Refuted or Unconfirmed (settle --help)",
    footer:
      "The Markdown table goes to stdout (append it to $GITHUB_STEP_SUMMARY). A row's target path is relative to " +
      'the current directory. Exit: 0; 1 when a row has a status --fail-on names; 2 for a bad rows file (every ' +
      'bad row named, nothing started).',
    arguments: true,
    params: false,
  },
  init: {
    forms: ['init --client <library> --shape <with-lock|binding> [options]'],
    summary: 'write a target for your helper (init --help)',
    footer: 'Asks for what is missing when stdin is a terminal; otherwise the flags are required.',
    arguments: false,
    params: false,
  },
  conformance: {
    forms: ['conformance --target <target> [--lang <language>] [--python <path>]'],
    summary: 'check a holder shim (any language) speaks the holder protocol (docs/holder-protocol.md)',
    footer: 'Exit: 0 when every check passes; 1 naming each missing piece; 2 for bad input.',
    arguments: false,
    params: false,
  },
  prove: {
    forms: [
      'prove <ID> --before <target> --after <target> [options] [--<param> <value> ...]',
      'prove <ID> --target <target> --before-ref <ref> [--after-ref <ref>] [options]',
    ],
    summary: 'a failing-first proof of a fix: every run before FAILs, every run after PASSes',
    about:
      "A ref side is checked out in a temporary git worktree that uses the project's own node_modules; without " +
      "--after-ref the after side is the working tree. The oracle's parameters go as for one oracle.",
    footer: 'Exit: 0 valid proof, 1 not a proof (which side broke and how), 2 usage error.',
    arguments: true,
    params: true,
  },
};
