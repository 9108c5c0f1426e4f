/**
 * An option's text made its value, by the kind the table gives it, and the typed values a command
 * receives: exactly the options it takes, each a boolean, number, choice or string, never missing
 * when it is a flag or has a default.
 */
import { UsageError } from '../../core/errors.ts';
import { OPTIONS, type CommandName, type OptionName, type OptionSpec, type Use } from './table.ts';

type Options = typeof OPTIONS;

type ValueOf<K extends OptionName> = Options[K]['kind'] extends { type: 'flag' }
  ? boolean
  : Options[K]['kind'] extends { type: 'whole' }
    ? number
    : Options[K]['kind'] extends { choices: readonly (infer C)[] }
      ? C
      : string;

/** The options command C takes. */
export type TakenBy<C extends CommandName> = {
  [K in OptionName]: C extends keyof Options[K]['for'] ? K : never;
}[OptionName];

type UseOf<K extends OptionName, C extends CommandName> = Options[K]['for'] extends { readonly [P in C]: infer U }
  ? U
  : never;

/** The options of C that always have a value: flags, and those with a default. */
type Always<C extends CommandName> = {
  [K in TakenBy<C>]: Options[K]['kind'] extends { type: 'flag' }
    ? K
    : UseOf<K, C> extends { default: unknown }
      ? K
      : never;
}[TakenBy<C>];

export type Values<C extends CommandName> = { [K in Always<C>]: ValueOf<K> } & {
  [K in Exclude<TakenBy<C>, Always<C>>]?: ValueOf<K>;
};

/** An option's declaration, read as any option's. */
export function specOf(name: OptionName): OptionSpec {
  return OPTIONS[name];
}

export function useOf(name: OptionName, command: CommandName): Use | undefined {
  return specOf(name).for[command];
}

/** The value of `--name raw` for a command, checked against the option's kind and that command's limit. */
export function toValue(name: OptionName, raw: string, use: Use): string | number {
  const { kind } = specOf(name);
  const option = `--${name}`;
  switch (kind.type) {
    case 'whole': {
      const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
      if (!Number.isSafeInteger(value) || value < kind.min || value > (use.max ?? Number.MAX_SAFE_INTEGER))
        throw new UsageError(
          use.max === undefined
            ? `${option} must be a whole number ≥ ${kind.min}, got "${raw}"`
            : `${option} must be a whole number from ${kind.min} to ${use.max}, got "${raw}"`,
        );
      return value;
    }
    case 'choice': {
      const value = kind.anyCase ? raw.toLowerCase() : raw;
      if (!kind.choices.includes(value))
        throw new UsageError(`${option} must be ${kind.choices.join(' | ')}, got "${raw}"`);
      return value;
    }
    case 'text':
      return raw;
    case 'flag':
      throw new UsageError(`${option} takes no value, got "${raw}"`);
  }
}

/** The value an option has for a command when it is not given: false for a flag, else its default, if any. */
export function defaultValue(name: OptionName, use: Use): string | number | boolean | undefined {
  if (specOf(name).kind.type === 'flag') return false;
  const fallback = use.default;
  return typeof fallback === 'object' ? fallback.compute() : fallback;
}
