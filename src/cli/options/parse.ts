/**
 * The command line read by the option table (table.ts): which command it is, then that command's
 * options made values (values.ts), its free arguments and, for a run or a proof, the oracle
 * parameters (any other `--name value`, checked later against the oracle's own `params`). Every
 * refusal names the option and what was wrong with it.
 */
import { parseArgs } from 'node:util';
import { UsageError } from '../../core/errors.ts';
import { COMMANDS } from './commands.ts';
import { didYouMean } from './nearest.ts';
import { COMMAND_NAMES, OPTIONS, type CommandName, type OptionName } from './table.ts';
import { defaultValue, specOf, toValue, useOf, type Values } from './values.ts';

type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];

export type Parsed<C extends CommandName> =
  /** `--help` (or -h) was given: nothing else is checked. `args`: the free arguments, the command's name first. */
  { help: true; args: string[] } | { help: false; args: string[]; values: Values<C>; params: Record<string, string> };

/** The command a command line names: its first free argument, a sub-command's name or else an oracle id (a run). */
export function commandOf(argv: string[]): CommandName | undefined {
  const first = free(tokenize(argv, Object.keys(OPTIONS) as OptionName[]), new Set())[0];
  if (first === undefined) return undefined;
  return (COMMAND_NAMES as readonly string[]).includes(first) && first !== 'run' ? (first as CommandName) : 'run';
}

/** The options `command` takes, the names the help shows for them first. */
export function optionsOf(command: CommandName): OptionName[] {
  return (Object.keys(OPTIONS) as OptionName[]).filter((name) => useOf(name, command));
}

export function parseCommand<C extends CommandName>(command: C, argv: string[]): Parsed<C> {
  const taken = optionsOf(command);
  const tokens = tokenize(argv, taken);
  const consumed = new Set<number>();
  const params = COMMANDS[command].params ? paramsOf(tokens, taken, consumed) : {};
  const args = free(tokens, consumed);
  const given = tokens.filter((t) => t.kind === 'option' && !consumed.has(t.index));
  if (given.some((t) => t.kind === 'option' && t.name === 'help')) return { help: true, args };
  const raw = new Map<OptionName, string | undefined>();
  for (const token of given) {
    if (token.kind !== 'option') continue;
    const name = token.name as OptionName;
    if (!taken.includes(name)) {
      const known = taken.map((n) => `--${n}`);
      throw new UsageError(
        `unknown option ${token.rawName}${didYouMean(token.rawName, known)}. ${command === 'run' ? 'A run' : command} takes: ${known.join(', ')}`,
      );
    }
    if (raw.has(name))
      throw new UsageError(
        `${token.rawName} is given more than once: give each option once (which one was meant is not for the harness to guess)`,
      );
    const { arg } = specOf(name);
    if (arg !== undefined && token.value === undefined)
      throw new UsageError(`${token.rawName} needs a value (${token.rawName} ${arg})`);
    raw.set(name, token.value);
  }
  if (!COMMANDS[command].arguments && args.length > 1)
    throw new UsageError(
      `unexpected argument(s) ${args
        .slice(1)
        .map((a) => JSON.stringify(a))
        .join(' ')}: options take the form --name value (see --help)`,
    );
  const values: Record<string, string | number | boolean | undefined> = {};
  for (const name of taken) {
    const use = useOf(name, command)!;
    const text = raw.get(name);
    values[name] = !raw.has(name) ? defaultValue(name, use) : text === undefined ? true : toValue(name, text, use);
  }
  return { help: false, args, values: values as Values<C>, params };
}

function tokenize(argv: string[], names: readonly OptionName[]): Token[] {
  const options = Object.fromEntries(
    names.map((name) => {
      const spec = specOf(name);
      const type = spec.kind.type === 'flag' ? ('boolean' as const) : ('string' as const);
      return [name, spec.short ? { type, short: spec.short } : { type }];
    }),
  );
  return parseArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true }).tokens ?? [];
}

/** The free arguments: positionals not taken as a parameter's value. */
function free(tokens: Token[], consumed: ReadonlySet<number>): string[] {
  return tokens
    .filter((t) => t.kind === 'positional' && !consumed.has(t.index))
    .map((t) => (t as { value: string }).value);
}

/**
 * Every `--name value` the command does not take, as an oracle parameter (`--step-ms 20` ->
 * stepMs); the tokens it used are added to `consumed`. A negative number is a value (`--ttl -5`).
 */
function paramsOf(tokens: Token[], taken: readonly OptionName[], consumed: Set<number>): Record<string, string> {
  const params: Record<string, string> = {};
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== 'option' || (taken as readonly string[]).includes(token.name) || consumed.has(token.index))
      continue;
    const name = token.name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    let value = token.value;
    if (value === undefined) {
      const next = tokens.find((t) => t.index === token.index + 1);
      if (next?.kind === 'positional') {
        value = next.value;
        consumed.add(next.index);
      } else if (next?.kind === 'option' && /^-\d/.test(next.rawName)) {
        value = next.rawName;
        consumed.add(next.index);
      }
    }
    // Alone, it is '' here: the oracle's parameter says what that means (a choice's bare value) or that it needs one.
    value ??= '';
    if (seen.has(name))
      throw new UsageError(
        `${token.rawName} is given more than once: give each option once (which one was meant is not for the harness to guess)`,
      );
    seen.add(name);
    consumed.add(token.index);
    params[name] = value;
  }
  return params;
}
