/**
 * Every filesystem call a holder makes on a path under env.dir is a boundary (--store fs): node:fs
 * and node:fs/promises are wrapped in the holder process before the target loads (holder-entry.ts),
 * and the built-in ES module exports synced, so `import { mkdir } from 'node:fs/promises'`,
 * `require('fs').mkdirSync` and graceful-fs (which calls through fs) all land here. Each call is
 * reported before it runs and after (its result). While the harness has a hold armed on this
 * holder (the gate, set on the protocol pipe before any later request), each report waits for the harness's
 * answer: a held boundary really blocks that call (an async one awaits; a sync one blocks the
 * thread, fs-sync-wait.ts). With no hold armed, a report is sent and the call goes on at once. The
 * real call still runs against the real filesystem. Calls on other paths, and every call before
 * init named the directory, pass straight through.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FsChannel } from './fs-channel.ts';
import { FS_OPS, FS_SYNC_ONLY_OPS, type FsForm, type FsOp, type FsReport } from './fs-protocol.ts';

/** Calls naming two paths (the boundary covers them when either is under the directory). */
const TWO_PATHS: ReadonlySet<FsOp> = new Set(['rename', 'link']);
/** Where the flags are among a call's arguments: open(path, flags), writeFile(path, data, { flag }). */
const FLAGS_AT: Partial<Record<FsOp, number>> = { open: 1, writeFile: 2 };
/** Calls that make or write what a path names (rename and link: their second path); open only with a writing flag. */
const MAKING: ReadonlySet<FsOp> = new Set(['mkdir', 'open', 'writeFile', 'rename', 'link']);
/** The real lstatSync, taken before the wrapping: the inode a making call left is read without a report of its own. */
const realLstatSync = fs.lstatSync;

let watched: { dir: string; channel: FsChannel } | undefined;
/** Whether a hold is armed on this holder: then every report waits for the harness's answer. */
let gated = false;
let nextId = 1;

type AnyFunction = (...args: unknown[]) => unknown;

/** The path an argument names, or undefined (a file descriptor, a FileHandle). */
function pathOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return resolve(arg);
  if (arg instanceof URL && arg.protocol === 'file:') return fileURLToPath(arg);
  if (Buffer.isBuffer(arg)) return resolve(arg.toString());
  return undefined;
}

/** The call's path(s) relative to the directory, when one is under it. */
function watchedPath(op: FsOp, args: unknown[]): string | undefined {
  if (!watched) return undefined;
  const dir = watched.dir;
  const paths = (TWO_PATHS.has(op) ? args.slice(0, 2) : args.slice(0, 1)).map(pathOf);
  const inside = (path: string | undefined) => {
    if (path === undefined) return false;
    const rel = relative(dir, path);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  };
  if (!paths.some(inside)) return undefined;
  return paths.map((path) => (path === undefined ? '?' : inside(path) ? relative(dir, path) : path)).join(' -> ');
}

function flagsOf(op: FsOp, args: unknown[]): string | undefined {
  const at = FLAGS_AT[op];
  if (at === undefined) return undefined;
  const arg = args[at];
  const flag = typeof arg === 'object' && arg !== null ? (arg as { flag?: unknown; flags?: unknown }).flag : arg;
  return typeof flag === 'string' ? flag : undefined;
}

function report(op: FsOp, path: string, form: FsForm, args: unknown[]): FsReport {
  const flags = flagsOf(op, args);
  return { id: nextId++, op, path, form, phase: 'call', ...(flags ? { flags } : {}) };
}

/** The path a making call makes or writes (a rename's or link's destination): relative to the directory, and absolute. */
interface Makes {
  rel: string;
  abs: string;
}

/** The path under the directory a making call makes or writes, else undefined. */
function makesPath(op: FsOp, args: unknown[]): Makes | undefined {
  if (!watched || !MAKING.has(op) || (op === 'open' && !opensToWrite(args[1]))) return undefined;
  // mkdir -p succeeds on a directory that is there already: it made nothing.
  if (op === 'mkdir' && typeof args[1] === 'object' && (args[1] as { recursive?: unknown } | null)?.recursive)
    return undefined;
  const abs = pathOf(TWO_PATHS.has(op) ? args[1] : args[0]);
  if (abs === undefined) return undefined;
  const rel = relative(watched.dir, abs);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? { rel, abs } : undefined;
}

/** Whether open's flags create, truncate or append ("w", "wx", "a+", or O_CREAT / O_TRUNC / O_APPEND): not "r", "r+". */
function opensToWrite(flags: unknown): boolean {
  if (typeof flags === 'string') return /[wax]/.test(flags);
  const { O_CREAT, O_TRUNC, O_APPEND } = fs.constants;
  return typeof flags === 'number' && (flags & (O_CREAT | O_TRUNC | O_APPEND)) !== 0;
}

const resultOf = (error: unknown) => (error ? ((error as NodeJS.ErrnoException).code ?? 'error') : 'ok');

/**
 * The report of `call`'s result: "ok" or its error's code; a making call that succeeded carries the
 * inode now at the path it made (read at once, before the report: a contender's call in between is
 * the one window where it could name another's).
 */
function resultReport(call: FsReport, error: unknown, makes: Makes | undefined): FsReport {
  const stat = makes && !error ? realLstatSync(makes.abs, { throwIfNoEntry: false }) : undefined;
  return {
    ...call,
    id: nextId++,
    phase: 'result',
    of: call.id,
    result: resultOf(error),
    ...(makes && stat ? { made: { path: makes.rel, ino: Number(stat.ino) } } : {}),
  };
}

/** Report, then `next`: once the harness answered while gated, else at once. */
function tellThen(channel: FsChannel, sent: FsReport, next: () => unknown): void {
  if (gated) {
    void channel.report(sent).then(next);
    return;
  }
  channel.send(sent);
  next();
}

function wrapCallback(op: FsOp, original: AnyFunction): AnyFunction {
  return function (this: unknown, ...args: unknown[]) {
    const path = watchedPath(op, args);
    const callback = args.at(-1);
    if (path === undefined || typeof callback !== 'function' || !watched) return original.apply(this, args);
    const { channel } = watched;
    const call = report(op, path, 'callback', args);
    const makes = makesPath(op, args);
    const done = (error: unknown, ...results: unknown[]) =>
      tellThen(channel, resultReport(call, error, makes), () => (callback as AnyFunction)(error, ...results));
    tellThen(channel, call, () => original.apply(this, [...args.slice(0, -1), done]));
  };
}

function wrapPromise(op: FsOp, original: AnyFunction): AnyFunction {
  return async function (this: unknown, ...args: unknown[]) {
    const path = watchedPath(op, args);
    if (path === undefined || !watched) return original.apply(this, args);
    const { channel } = watched;
    const call = report(op, path, 'promise', args);
    const tell = async (sent: FsReport) => (gated ? channel.report(sent) : channel.send(sent));
    await tell(call);
    const makes = makesPath(op, args);
    const after = (error: unknown) => tell(resultReport(call, error, makes));
    let value: unknown;
    try {
      value = await original.apply(this, args);
    } catch (error) {
      await after(error);
      throw error;
    }
    await after(undefined);
    return value;
  };
}

function wrapSync(op: FsOp, original: AnyFunction): AnyFunction {
  return function (this: unknown, ...args: unknown[]) {
    const path = watchedPath(op, args);
    if (path === undefined || !watched) return original.apply(this, args);
    const { channel } = watched;
    const call = report(op, path, 'sync', args);
    const tell = (sent: FsReport) => (gated ? channel.reportSync(sent) : channel.send(sent));
    tell(call);
    const makes = makesPath(op, args);
    const after = (error: unknown) => tell(resultReport(call, error, makes));
    let value: unknown;
    try {
      value = original.apply(this, args);
    } catch (error) {
      after(error);
      throw error;
    }
    after(undefined);
    return value;
  };
}

/** Wrap node:fs (callback and sync forms) and node:fs/promises, and sync the ES module exports. Once, before the target loads. */
export function installFsBoundaries(): void {
  const callbacks = fs as unknown as Record<string, AnyFunction>;
  const promises = fs.promises as unknown as Record<string, AnyFunction>;
  for (const op of FS_OPS) {
    callbacks[op] = wrapCallback(op, callbacks[op]!);
    callbacks[`${op}Sync`] = wrapSync(op, callbacks[`${op}Sync`]!);
    promises[op] = wrapPromise(op, promises[op]!);
  }
  for (const op of FS_SYNC_ONLY_OPS) callbacks[`${op}Sync`] = wrapSync(op, callbacks[`${op}Sync`]!);
  syncBuiltinESMExports();
}

/** From init on, calls under `dir` are boundaries reported on the harness's `socket`. */
export function watchFsBoundaries(dir: string, socket: string): void {
  watched = { dir: resolve(dir), channel: new FsChannel(socket) };
}

/** The harness armed a hold on this holder (every report then waits for its answer), or has none armed. */
export function gateFsBoundaries(wait: boolean): void {
  gated = wait;
}

/** The last report sent to the harness (0 before any): the holder's later protocol messages carry it. */
export function lastFsReport(): number {
  return watched?.channel.lastSent ?? 0;
}
