/**
 * Every `--help` text, built from the option table (table.ts) and the commands (commands.ts): the
 * overview (`--help` alone: every command, then the options of a run) and each sub-command's own.
 */
import { COMMAND } from '../../core/invocation.ts';
import { COMMANDS } from './commands.ts';
import { COMMAND_NAMES, OPTIONS, type CommandName, type OptionName } from './table.ts';
import { specOf, useOf } from './values.ts';

const WIDTH = 112;
const DOC_COLUMN = 23;

/** `--help` alone. */
export function overview(): string {
  const forms = COMMAND_NAMES.flatMap((name) => [
    ...COMMANDS[name].forms.map((form) => `  ${COMMAND} ${form}`),
    ...wrap(COMMANDS[name].summary, 6),
  ]);
  return [
    'lock-oracles: prove or refute lock, lease, leader and clock bugs against real stores.',
    '',
    'Usage:',
    ...forms,
    '',
    'Options of a run (each command lists its own: <command> --help):',
    ...optionLines('run'),
    '',
    COMMANDS.run.footer!,
  ].join('\n');
}

/** `<command> --help`. */
export function commandHelp(command: Exclude<CommandName, 'run'>): string {
  const { forms, about, footer } = COMMANDS[command];
  return [
    ...forms.map((form, i) => `${i ? '       ' : 'Usage: '}${COMMAND} ${form}`),
    ...(about ? ['', ...wrap(about, 0)] : []),
    '',
    'Options:',
    ...optionLines(command),
    ...(footer ? ['', ...wrap(footer, 0)] : []),
  ].join('\n');
}

function optionLines(command: CommandName): string[] {
  return (Object.keys(OPTIONS) as OptionName[]).flatMap((name) => {
    const use = useOf(name, command);
    if (!use) return [];
    const spec = specOf(name);
    const label = `${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.arg ? ` ${spec.arg}` : ''}`;
    const fallback = typeof use.default === 'object' ? use.default.shown : use.default;
    const doc = `${use.doc}${fallback === undefined ? '' : `; default: ${fallback}`}`;
    const [first = '', ...rest] = wrap(doc, DOC_COLUMN);
    const head = `  ${label}`;
    return head.length < DOC_COLUMN - 1
      ? [`${head.padEnd(DOC_COLUMN)}${first.trimStart()}`, ...rest]
      : [head, first, ...rest];
  });
}

/** Words filled into lines of at most WIDTH columns, each indented by `indent`; a newline in `text` is kept. */
function wrap(text: string, indent: number): string[] {
  return text.split('\n').flatMap((paragraph) => {
    const lines: string[] = [];
    let line = '';
    for (const word of paragraph.split(' ')) {
      if (line && indent + line.length + 1 + word.length > WIDTH) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    return [...lines, line].map((l) => `${' '.repeat(indent)}${l}`);
  });
}
