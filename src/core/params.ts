/**
 * Oracle parameters: declared once per oracle with a kind, a default and a line of doc; parsed
 * from the CLI (`--ttl 300`, `--step-ms 20`) and validated with messages that name the option
 * and the bad value.
 */
import { ParamError } from './errors.ts';

export type ParamSpec =
  /** `waited: false`: a duration the run never waits out in real time (simulated time, a clock step). */
  | { kind: 'ms'; default: number; doc: string; min?: number; max?: number; waited?: false }
  | { kind: 'count'; default: number; doc: string; min?: number; max?: number }
  /** `bare`: what the option alone means (`--strict-ttl` for `--strict-ttl on`); without it the option needs a value. */
  | { kind: 'choice'; default: string; doc: string; choices: readonly string[]; bare?: string }
  | { kind: 'text'; default: string; doc: string };

export type ParamSpecs = Record<string, ParamSpec>;

/** Bounds for parameters that declare none: every run must end in minutes, not days. */
export const MAX_MS = 120_000;
export const MAX_COUNT = 10_000;

type ValueOf<S extends ParamSpec> = S extends { kind: 'ms' | 'count' } ? number : string;
export type ParamValues<P extends ParamSpecs> = { [K in keyof P]: ValueOf<P[K]> };

/** `stepMs` -> `--step-ms` */
export function optionName(param: string): string {
  return `--${param.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** Fill defaults, parse strings, check ranges. `given` holds raw CLI strings or typed values. */
export function resolveParams<P extends ParamSpecs>(specs: P, given: Record<string, unknown>): ParamValues<P> {
  const unknown = Object.keys(given).filter((k) => !(k in specs));
  if (unknown.length) {
    const known = Object.keys(specs).map(optionName).join(', ');
    throw new ParamError(`unknown option ${unknown.map(optionName).join(', ')} (this oracle takes: ${known})`);
  }
  const values: Record<string, number | string> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const raw = given[name];
    values[name] = raw === undefined ? spec.default : parseOne(name, spec, raw);
  }
  return values as ParamValues<P>;
}

/** An option given with no value (`--strict-ttl` alone) reaches here as ''. */
function parseOne(name: string, spec: ParamSpec, raw: unknown): number | string {
  const option = optionName(name);
  if (raw === '' && spec.kind === 'choice' && spec.bare !== undefined) return spec.bare;
  if (raw === '') throw new ParamError(`${option} needs a value (e.g. ${option} ${exampleOf(spec)})`);
  switch (spec.kind) {
    case 'ms':
    case 'count': {
      // Plain decimal digits only: Number() would also take 0x40, 1e9, 0b11 and '' (= 0).
      const text = typeof raw === 'number' ? String(raw) : String(raw).replace(/ms$/, '');
      const value = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
      if (!Number.isSafeInteger(value)) {
        throw new ParamError(
          `${option} must be a whole number${spec.kind === 'ms' ? ' of milliseconds' : ''} in decimal digits, got "${String(raw)}"`,
        );
      }
      const min = spec.min ?? (spec.kind === 'ms' ? 1 : 0);
      const max = spec.max ?? (spec.kind === 'ms' ? MAX_MS : MAX_COUNT);
      if (value < min) throw new ParamError(`${option} must be at least ${min}, got ${value}`);
      if (value > max) throw new ParamError(`${option} must be at most ${max}, got ${value}`);
      return value;
    }
    case 'choice': {
      const value = String(raw);
      if (!spec.choices.includes(value)) {
        throw new ParamError(`${option} must be one of ${spec.choices.join(' | ')}, got "${value}"`);
      }
      return value;
    }
    case 'text':
      return String(raw);
  }
}

/** A value the option takes, for a message: `300` for a duration, `on | off` for a choice. */
function exampleOf(spec: ParamSpec): string {
  if (spec.kind === 'choice') return spec.choices.join(' | ');
  if (spec.kind === 'text') return spec.default || 'VALUE';
  return String(spec.kind === 'ms' ? Math.max(spec.min ?? 1, 300) : Math.max(spec.min ?? 0, 3));
}

/**
 * The default per-run deadline: a minute for start-up and teardown plus three times every
 * duration the run may really wait (TTLs, timeouts, pauses); a run that outlives it is stuck.
 */
export function defaultDeadlineMs(specs: ParamSpecs, values: Record<string, string | number>): number {
  let waited = 0;
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.kind === 'ms' && spec.waited !== false) waited += Number(values[name] ?? spec.default);
  }
  return 60_000 + 3 * waited;
}

/**
 * The flags for a hint to run with a longer lease, when something that must fit inside it (an
 * acquire, a read of the lock) took `tookMs`: a TTL three times that, at least twice `ttlMs`, in
 * whole hundreds of ms; and a --timeout twice the TTL when the run's `timeoutMs` would not outlast it.
 */
export function longerTtlFlags(tookMs: number, ttlMs: number, timeoutMs?: number): string {
  const ttl = Math.max(2 * ttlMs, Math.ceil((3 * tookMs) / 100) * 100);
  return timeoutMs !== undefined && timeoutMs <= ttl ? `--ttl ${ttl} --timeout ${2 * ttl}` : `--ttl ${ttl}`;
}
