/**
 * Runs inside each holder process (compiled, with plain node): loads the compiled target module and
 * does what the harness asks over the holder protocol's pipes (docs/holder-protocol.md: requests on
 * fd 3, messages on fd 4; the Node shim, as sdk/python/lock_oracles.py is Python's). Effects and
 * seams are round trips to the harness, which may hold the reply: that is how a latch really blocks
 * this process.
 */
import { pathToFileURL } from 'node:url';
import type { EffectDetail, EffectReceipt, Lease, ScheduleHandle, Target, TargetEnv } from '../../targets/contract.ts';
import {
  HOLDER_PROTOCOL_VERSION,
  type DecideReply,
  type FromHolder,
  type HolderErrorCode,
  type HolderInit,
  type InitReply,
  type LeaseSummary,
  type ToHolder,
} from './holder-protocol.ts';
import { gateFsBoundaries, installFsBoundaries, lastFsReport, watchFsBoundaries } from './fs-preload.ts';
import { openChildPipes, type ChildPipes } from './holder-pipes-child.ts';

/**
 * The compiled module to load, this holder's id, and the target as the user named it. Read when
 * used: a holder shell that loads the target ahead (bin/holder-shell.js) learns the last two later.
 */
const args = () => process.argv.slice(2) as [modulePath: string, holderId: string, targetPath: string];
/** The launcher's shell, which imported this entry before the harness named the holder: resolves once it did. */
const becomeAhead = (globalThis as Record<symbol, unknown>)[Symbol.for('lock-oracles.holder-become')] as
  Promise<void> | undefined;
let pipes: ChildPipes | undefined;
// Each message names the last filesystem report before it: the harness handles it after that report.
const send = (message: FromHolder): Promise<void> => {
  const fsSeq = lastFsReport();
  return pipes?.send(fsSeq ? { ...message, fsSeq } : message) ?? Promise.resolve();
};

/** A request the shim refuses, with the protocol's stable code (docs/holder-protocol.md, "Errors"); any other throw is the member's own (`threw`). */
class HolderError extends Error {
  constructor(
    readonly code: Exclude<HolderErrorCode, 'threw'>,
    message: string,
  ) {
    super(message);
  }
}

/** What env.effect throws for an `indefinite` outcome: nobody can say whether the write reached the resource. */
export class EffectIndefiniteError extends Error {
  readonly code = 'EFFECT_INDEFINITE';
}

const pendingEffects = new Map<number, { resolve: (receipt: EffectReceipt) => void; reject: (error: Error) => void }>();
const pendingSeams = new Map<number, () => void>();
const leases = new Map<number, Lease>();
const schedules: ScheduleHandle[] = [];
const abort = new AbortController();
let nextId = 1;
let env: TargetEnv | undefined;
/** The target's close, once a graceful shutdown began it (the final close then only waits for it). */
let shuttingDown: Promise<void> | undefined;

function loadTarget(module: Record<string, unknown>): Target {
  const candidate = (module.default ?? module.target) as Target | undefined;
  if (!candidate || typeof candidate !== 'object') {
    throw new Error(`${args()[2]} has no default export (export default defineTarget({...}))`);
  }
  return candidate;
}

function makeEnv({ fsBoundaries: _, ...init }: HolderInit): TargetEnv {
  return {
    ...init,
    holder: args()[1],
    signal: abort.signal,
    params: Object.freeze({ ...init.params }),
    effect(name: string, detail: EffectDetail = {}) {
      const id = nextId++;
      return new Promise<EffectReceipt>((resolve, reject) => {
        pendingEffects.set(id, { resolve, reject });
        void send({
          t: 'effect',
          id,
          name,
          detail: JSON.parse(JSON.stringify(detail)) as EffectDetail,
          at: performance.now(),
        });
      });
    },
    seam(name: string) {
      const id = nextId++;
      return new Promise<void>((resolve) => {
        pendingSeams.set(id, resolve);
        void send({ t: 'seam', id, name });
      });
    },
    log(message: string) {
      void send({ t: 'log', message });
    },
  };
}

/**
 * The pure writer shape: build the record this write makes (stamp, on this holder's clock) and ask
 * decide whether it replaces the one the harness keeps (JSON, '' when there is none yet).
 */
async function decideWrite(target: Target, env: TargetEnv, value: string, existingJson: string): Promise<DecideReply> {
  const existing: unknown = existingJson === '' ? null : JSON.parse(existingJson);
  const incoming = target.stamp ? await target.stamp(env, value, existing) : { value, updatedAt: Date.now() };
  const replaces = await target.decide!(incoming, existing);
  if (typeof replaces !== 'boolean')
    throw new HolderError(
      'bad-return',
      `decide() returned ${JSON.stringify(replaces)}: return true when incoming replaces existing, false when not`,
    );
  return { replaces, incoming: JSON.stringify(incoming ?? null) };
}

async function call(target: Target, member: string, leaseId: number | undefined, args: unknown[]): Promise<unknown> {
  if (!env) throw new HolderError('not-ready', 'holder called before init');
  const fn = (target as Record<string, unknown>)[member];
  if (typeof fn !== 'function') throw new HolderError('no-member', `the target has no "${member}" member`);
  if (member === 'acquire') {
    const lease = (await fn.call(target, env)) as Lease | null | false | undefined;
    if (lease === undefined) {
      throw new HolderError(
        'bad-return',
        'acquire() returned undefined: return a lease object when the lock was taken, or null when it was denied',
      );
    }
    if (lease === null || lease === false) return null;
    if (typeof lease !== 'object') {
      throw new HolderError(
        'bad-return',
        `acquire() returned ${JSON.stringify(lease) ?? String(lease)} (a ${typeof lease}): return a lease object (e.g. { token }) when the lock was taken, or null when it was denied`,
      );
    }
    const leaseObject: Lease = lease;
    const leaseId = nextId++;
    leases.set(leaseId, leaseObject);
    const summary: LeaseSummary = { leaseId };
    if (typeof leaseObject.token === 'string') summary.token = leaseObject.token;
    if (typeof leaseObject.fence === 'number') summary.fence = leaseObject.fence;
    return summary;
  }
  if (member === 'decide') return decideWrite(target, env, String(args[0]), String(args[1] ?? ''));
  if (leaseId !== undefined) {
    const lease = leases.get(leaseId);
    if (!lease) throw new HolderError('unknown-lease', `unknown lease ${leaseId}`);
    return fn.call(target, env, lease, ...args);
  }
  const value = await fn.call(target, env, ...args);
  if (member !== 'schedule') return value;
  // The scheduler's handle stays here; it is stopped when the harness closes this holder.
  if (value && typeof (value as ScheduleHandle).stop === 'function') schedules.push(value as ScheduleHandle);
  return undefined;
}

/** The conformance suite's probes (docs/holder-protocol.md, section 5): this shim's own env, used as a target would. */
async function selftest(probe: Extract<ToHolder, { t: 'selftest' }>): Promise<unknown> {
  if (!env) throw new HolderError('not-ready', 'selftest before init');
  switch (probe.op) {
    case 'effect':
      try {
        return await env.effect(probe.name, probe.detail);
      } catch (error) {
        if (error instanceof EffectIndefiniteError) return { raised: 'indefinite' };
        throw error;
      }
    case 'seam':
      await env.seam(probe.name);
      return null;
    case 'log':
      env.log(probe.message);
      return null;
    case 'raise':
      throw new Error(probe.message);
  }
}

async function main(): Promise<void> {
  // Listen first, then load and say ready: the harness's first message answers 'ready'. A harness
  // that dies (even by SIGKILL) ends fd 3: a holder never outlives it. Loaded ahead, the shell
  // listens on fd 3 until the harness names this holder; the pipes are opened then.
  const openPipes = () =>
    (pipes = openChildPipes(
      (raw) => void handle(raw as ToHolder),
      (line) => void send({ t: 'log', message: `bad-message: not JSON: ${line.slice(0, 200)}` }),
      () => process.exit(0),
    ));
  if (!becomeAhead) openPipes();
  // Before the target loads, so that every import of node:fs it makes sees the wrapped calls.
  installFsBoundaries();
  const imported = import(pathToFileURL(args()[0]).href).then(
    (module) => ({ module: module as Record<string, unknown> }),
    (error: unknown) => ({ error }),
  );
  if (becomeAhead) {
    await Promise.all([imported, becomeAhead]);
    openPipes();
  }
  let target: Target;
  try {
    const result = await imported;
    if ('error' in result) throw result.error;
    target = loadTarget(result.module);
  } catch (error) {
    await send({ t: 'load-error', message: (error as Error)?.stack ?? String(error) });
    process.exit(1);
  }
  const members = Object.keys(target).filter((k) => typeof (target as Record<string, unknown>)[k] === 'function');
  const reply = (id: number, run: () => Promise<unknown>) => {
    const began = performance.now();
    run().then(
      (value) =>
        send({ t: 'result', id, ok: true, value: value === undefined ? null : value, began, ended: performance.now() }),
      (error: unknown) =>
        send({
          t: 'result',
          id,
          ok: false,
          code: error instanceof HolderError ? error.code : 'threw',
          error: (error as Error)?.stack ?? String(error),
          began,
          ended: performance.now(),
        }),
    );
  };
  async function handle(message: ToHolder): Promise<void> {
    switch (message.t) {
      case 'init':
        if (message.init.dir !== undefined && message.init.fsBoundaries !== undefined)
          watchFsBoundaries(message.init.dir, message.init.fsBoundaries);
        env = makeEnv(message.init);
        reply(message.id, async (): Promise<InitReply> => {
          await target.connect?.(env!);
          const storeKey = target.storeKey?.(env!);
          return storeKey === undefined ? {} : { storeKey };
        });
        break;
      case 'call':
        reply(message.id, () => call(target, message.member, message.leaseId, message.args));
        break;
      case 'effect-reply': {
        const pending = pendingEffects.get(message.id);
        pendingEffects.delete(message.id);
        if (message.outcome === 'indefinite') pending?.reject(new EffectIndefiniteError(message.reason));
        else pending?.resolve(message.receipt);
        break;
      }
      case 'selftest':
        reply(message.id, () => selftest(message));
        break;
      case 'seam-reply':
        pendingSeams.get(message.id)?.();
        pendingSeams.delete(message.id);
        break;
      case 'abort':
        abort.abort();
        break;
      case 'fs-gate':
        gateFsBoundaries(message.wait);
        break;
      case 'clock':
        // Loaded on first use: fake-timers costs ~50 ms at start-up, and most oracles never fake a clock.
        reply(message.id, async () => (await import('./holder-clock.ts')).handleClockCommand(message.command));
        break;
      case 'shutdown':
        // Called, not awaited, before the next message is read: the job goes on while close runs.
        shuttingDown = Promise.resolve(env ? target.close?.(env) : undefined).then(() => undefined);
        reply(message.id, () => shuttingDown!);
        break;
      case 'close':
        try {
          for (const handle of schedules.splice(0)) await handle.stop();
          if (shuttingDown) await shuttingDown.catch(() => undefined);
          else if (env) await target.close?.(env);
        } finally {
          await send({ t: 'result', id: message.id, ok: true, value: null });
          process.exit(0);
        }
    }
  }
  await send({
    t: 'ready',
    protocol: HOLDER_PROTOCOL_VERSION,
    language: 'node',
    runtime: process.versions.node,
    pid: process.pid,
    members,
    ...(target.name ? { name: target.name } : {}),
    ...(target.description ? { description: target.description } : {}),
    ...(target.fenceStore ? { fenceStore: target.fenceStore } : {}),
  });
}

void main();
