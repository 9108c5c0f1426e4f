/**
 * Runs inside each holder process (compiled, with plain node): loads the compiled target module and
 * does what the harness asks over IPC. Effects and seams are round trips to the harness, which
 * may hold the reply: that is how a latch really blocks this process.
 */
import { pathToFileURL } from 'node:url';
import type {
  EffectDetail,
  EffectReceipt,
  Lease,
  ScheduleHandle,
  StoreLocation,
  Target,
  TargetEnv,
} from '../../targets/contract.ts';
import type { DecideReply, FromHolder, HolderInit, InitReply, LeaseSummary, ToHolder } from './holder-protocol.ts';
import { gateFsBoundaries, installFsBoundaries, lastFsReport, watchFsBoundaries } from './fs-preload.ts';

/** The compiled module to load, this holder's id, and the target as the user named it. */
const [modulePath, holderId, targetPath] = process.argv.slice(2) as [string, string, string];
// Node's own IPC channel, in JSON mode (the parent side is node's child_process too, see
// holder.ts): loading execa here would add ~130 ms to every holder's start.
// Each message names the last filesystem report before it: the harness handles it after that report.
const send = (message: FromHolder) =>
  new Promise<void>((resolve) => {
    if (!process.send || !process.connected) return resolve();
    const fsSeq = lastFsReport();
    process.send(fsSeq ? { ...message, fsSeq } : message, undefined, undefined, () => resolve());
  });

const pendingEffects = new Map<number, (receipt: EffectReceipt) => void>();
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
    throw new Error(`${targetPath} has no default export (export default defineTarget({...}))`);
  }
  return candidate;
}

function makeEnv({ fsBoundaries: _, ...init }: HolderInit): TargetEnv {
  return {
    ...init,
    holder: holderId,
    signal: abort.signal,
    params: Object.freeze({ ...init.params }),
    effect(name: string, detail: EffectDetail = {}) {
      const id = nextId++;
      return new Promise<EffectReceipt>((resolve) => {
        pendingEffects.set(id, resolve);
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

/** Why storeKey(env)'s result names no location, with the shapes to return instead; undefined when it names one. */
function storeKeyProblem(location: StoreLocation): string | undefined {
  const named = (value: unknown) => typeof value === 'string' && value !== '';
  const ok =
    named(location) ||
    (typeof location === 'object' &&
      location !== null &&
      ('path' in location
        ? named(location.path) &&
          (location.staleMs === undefined || typeof location.staleMs === 'number') &&
          (location.record === undefined ||
            (named(location.record.owner) &&
              (location.record.expiresAt === undefined || named(location.record.expiresAt))))
        : named(location.key) &&
          ('field' in location
            ? named(location.field) && (location.expiresField === undefined || named(location.expiresField))
            : named(location.table) &&
              named(location.keyColumn) &&
              named(location.expiresColumn) &&
              (location.ownerColumn === undefined || named(location.ownerColumn)))));
  return ok
    ? undefined
    : `storeKey(env) returned ${JSON.stringify(location)}: return a key ('lock.' + env.key), { key, field, expiresField? } for a lock kept in a hash field, { table, keyColumn, key, expiresColumn, ownerColumn? } for a Postgres lease row, or { path, owner?, staleMs?, record? } for a file lock`;
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
    throw new Error(
      `decide() returned ${JSON.stringify(replaces)}: return true when incoming replaces existing, false when not`,
    );
  return { replaces, incoming: JSON.stringify(incoming ?? null) };
}

async function call(target: Target, member: string, leaseId: number | undefined, args: unknown[]): Promise<unknown> {
  if (!env) throw new Error('holder called before init');
  const fn = (target as Record<string, unknown>)[member];
  if (typeof fn !== 'function') throw new Error(`the target has no "${member}" member`);
  if (member === 'acquire') {
    const lease = (await fn.call(target, env)) as Lease | null | false | undefined;
    if (lease === undefined) {
      throw new Error(
        'acquire() returned undefined: return a lease object when the lock was taken, or null when it was denied',
      );
    }
    if (lease === null || lease === false) return null;
    if (typeof lease !== 'object') {
      throw new Error(
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
    if (!lease) throw new Error(`unknown lease ${leaseId}`);
    return fn.call(target, env, lease, ...args);
  }
  const value = await fn.call(target, env, ...args);
  if (member !== 'schedule') return value;
  // The scheduler's handle stays here; it is stopped when the harness closes this holder.
  if (value && typeof (value as ScheduleHandle).stop === 'function') schedules.push(value as ScheduleHandle);
  return undefined;
}

async function main(): Promise<void> {
  let target: Target;
  // Before the target loads, so that every import of node:fs it makes sees the wrapped calls.
  installFsBoundaries();
  try {
    target = loadTarget((await import(pathToFileURL(modulePath).href)) as Record<string, unknown>);
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
          error: (error as Error)?.stack ?? String(error),
          began,
          ended: performance.now(),
        }),
    );
  };
  // Listen first, then say ready: the harness's first message answers 'ready'.
  process.on('message', (raw) => void handle(raw as ToHolder));
  // A harness that dies (even by SIGKILL) closes the channel: a holder never outlives it.
  process.on('disconnect', () => process.exit(0));
  async function handle(message: ToHolder): Promise<void> {
    switch (message.t) {
      case 'init':
        if (message.init.dir !== undefined && message.init.fsBoundaries !== undefined)
          watchFsBoundaries(message.init.dir, message.init.fsBoundaries);
        env = makeEnv(message.init);
        reply(message.id, async (): Promise<InitReply> => {
          await target.connect?.(env!);
          const storeKey = target.storeKey?.(env!);
          if (storeKey === undefined) return {};
          const problem = storeKeyProblem(storeKey);
          return problem === undefined ? { storeKey } : { storeKeyProblem: problem };
        });
        break;
      case 'call':
        reply(message.id, () => call(target, message.member, message.leaseId, message.args));
        break;
      case 'effect-reply':
        pendingEffects.get(message.id)?.(message.receipt);
        pendingEffects.delete(message.id);
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
    pid: process.pid,
    members,
    ...(target.name ? { name: target.name } : {}),
    ...(target.description ? { description: target.description } : {}),
    ...(target.fenceStore ? { fenceStore: target.fenceStore } : {}),
  });
}

void main();
