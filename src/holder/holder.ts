/**
 * A holder: one real OS process running the target, driven over the holder protocol's pipes
 * (docs/holder-protocol.md, holder-pipes.ts). The harness side of src/holder/holder-entry.ts (Node)
 * and of every language's shim (sdk/). Faults on it are real signals (SIGSTOP, SIGCONT, SIGKILL) and
 * latches (the holder blocks on a reply the harness withholds).
 */
import { existsSync, readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { compileModule } from '../build/compile-module.ts';
import { goHolder } from '../build/go-holder.ts';
import { javaClasspath, javaHolder } from '../build/java-holder.ts';
import type { History } from '../core/history.ts';
import type { Resource } from '../core/resource.ts';
import { cleanupProcess } from '../process/cleanup.ts';
import { firstLine } from '../core/judgement.ts';
import { waitUntilStopped } from '../process/process-tree.ts';
import type { FaultLog, FaultRecord } from '../core/fault-log.ts';
import { Latch } from './latch.ts';
import { EffectGate, type EffectGateOptions } from './effect-gate.ts';
import { spawnHolderProcess, spawnShimHolder } from './holder-command.ts';
import { holderLanguage, pythonInterpreter, PYTHON_SDK, type HolderLanguage } from './holder-language.ts';
import { HOLDER_ENTRY, takeHolderShell } from './holder-shell.ts';
import { HolderPipes } from './holder-pipes.ts';
import { storeKeyProblem } from './store-key-shape.ts';
import { handshakeProblem, loadError } from './handshake.ts';
import type {
  FromHolder,
  HolderInit,
  HolderSpan,
  InitReply,
  LeaseSummary,
  Scalar,
  ToHolder,
} from './holder-protocol.ts';
import type { StoreLocation } from '../../targets/contract.ts';
import type { ClockCommand, ClockReply } from './clock-protocol.ts';
import { TargetCallError, UsageError } from '../core/errors.ts';

/** connect() and acquire() must come back: a target that blocks there would hang the run. */
const CALL_DEADLINE_MS = 30_000;

/**
 * What a holder process runs: with plain node, this side's entry and the target, both compiled; in
 * another language, its interpreter, that language's shim (sdk/) and the target's file.
 */
export interface HolderModules {
  /** The target as the user named it (messages, evidence). */
  targetPath: string;
  language: HolderLanguage;
  entry: string;
  target: string;
  /** Python: the interpreter (holder-language.ts); Java and Go: the built holder's command (java, the binary). */
  interpreter?: string;
  /** Java and Go: the command's arguments, in place of `entry target`. */
  args?: string[];
}

/**
 * Compiles the holder entry and the target once (src/build/compile-module.ts); every holder of a run
 * then starts from the compiled modules in a fresh process. A target that does not compile (a
 * syntax error, an import that resolves nowhere) fails here with esbuild's message.
 */
export async function compileHolderModules(targetPath: string): Promise<HolderModules> {
  const language = holderLanguage(targetPath);
  if (language === 'python') {
    if (!existsSync(targetPath)) throw new Error(`${targetPath} does not exist`);
    return { targetPath, language, entry: PYTHON_SDK, target: resolve(targetPath), interpreter: pythonInterpreter() };
  }
  if (language === 'java' || language === 'go') {
    if (!existsSync(targetPath)) throw new Error(`${targetPath} does not exist`);
    const built = language === 'java' ? await javaHolder(targetPath, javaClasspath()) : await goHolder(targetPath);
    return {
      targetPath,
      language,
      entry: built.command,
      target: resolve(targetPath),
      interpreter: built.command,
      args: built.args,
    };
  }
  const [entry, target] = await Promise.all([
    compileModule(HOLDER_ENTRY),
    compileModule(targetPath).catch((error: unknown) => {
      throw new Error(`could not compile the target ${targetPath}:\n${(error as Error).message}`);
    }),
  ]);
  return { targetPath, language, entry, target };
}

/** How one holder process starts, beyond the usual. */
export interface HolderSpawnOptions {
  /** Environment on top of the harness's (a cluster node's clock library); such a holder is always spawned fresh. */
  env?: Record<string, string>;
}

export interface HolderContext {
  history: History;
  resource: Resource;
  faults: FaultLog;
}

export interface ReadyInfo {
  pid: number;
  members: string[];
  name?: string;
  description?: string;
  /** The second store the target asks for its fencing tokens (Target.fenceStore). */
  fenceStore?: 'postgres';
}

export interface CallOutcome {
  ok: boolean;
  value?: unknown;
  error?: string;
  /**
   * The member itself threw (its error is `error`). Unset when the call failed otherwise: the
   * holder process died before answering, or a call with a deadline never returned.
   */
  threw?: true;
  startedAt: number;
  endedAt: number;
  /** When the call began and ended in the holder, by its own performance.now() (compare with EffectRecord.holderAt). */
  holderSpan?: { began: number; ended: number };
}

export interface HolderExit {
  t: number;
  code: number | undefined;
  signal: string | undefined;
}

/**
 * Ends the run as ERROR when `outcome` is a throw of the member itself (not a holder that died,
 * which makes the run INCONCLUSIVE instead), `when` naming why nothing in the scenario provoked it.
 */
export function throwIfTargetThrew(
  holder: string,
  member: string,
  outcome: CallOutcome | undefined,
  when: string,
): void {
  if (outcome?.threw) throw new TargetCallError(holder, member, outcome.error ?? '', when);
}

export class Holder {
  readonly ready: Promise<ReadyInfo>;
  readonly exited: Promise<HolderExit>;
  #process: ChildProcess;
  #pipes: HolderPipes;
  #nextId = 1;
  #calls = new Map<number, (result: { ok: boolean; value?: unknown; error?: string; threw?: true }) => void>();
  /** What each call in flight is, by request id: named when a run ends with calls still pending. */
  #inFlight = new Map<number, string>();
  #readySettled = false;
  /** One entry per effect to come: a latch to hold it at, or undefined to let it pass. */
  #effectLatches: Array<Latch | undefined> = [];
  /** Gates holding effects on their way to the resource (a delayed write, a partition). */
  #effectGates: EffectGate[] = [];
  #observers: Array<(kind: 'seam' | 'effect', name: string) => void> = [];
  #seamLatches = new Map<string, Latch>();
  /** Runs before each effect reaches the resource (the harness reading the store then); told the effect's seq. */
  #beforeEffect: ((name: string) => Promise<(seq: number) => void>) | undefined;
  #stopped: FaultRecord | undefined;
  #exit: HolderExit | undefined;
  /** The harness asked this process to end (close or kill). */
  #endRequested = false;
  #unregister: () => Promise<void>;
  /** Booted while the CLI loaded (bin/holder-shell.js), not spawned by this run; and whether it loaded the target then too. */
  readonly #fromShell: 'booted' | 'loaded ahead' | undefined;
  /** A file store: undefined once the holder's filesystem report `id` was seen, else a promise of it. */
  #fsReport: ((id: number) => Promise<void> | undefined) | undefined;
  /** Messages waiting, in order, for the filesystem reports sent before them. */
  #inbox: Promise<void> | undefined;

  readonly targetPath: string;
  /** A holder in another language: the interpreter it runs with (named when a module it imports is missing). */
  readonly #interpreter: string | undefined;
  readonly #language: HolderLanguage;

  constructor(
    readonly id: string,
    modules: HolderModules,
    private readonly ctx: HolderContext,
    options: HolderSpawnOptions = {},
  ) {
    const targetPath = (this.targetPath = modules.targetPath);
    this.#interpreter = modules.interpreter;
    this.#language = modules.language;
    const argv = [modules.entry, modules.target, id, targetPath];
    // Node's own child_process, not execa: the launcher starts a holder shell (bin/holder-shell.js)
    // before the CLI, and with it execa, is loaded; both kinds start and are driven the same way.
    // The shell was started with the harness's environment: a holder that needs its own is spawned.
    const taken = options.env || modules.language !== 'node' ? undefined : takeHolderShell(modules);
    const shell = taken?.process;
    this.#fromShell = taken && (taken.loadedAhead ? 'loaded ahead' : 'booted');
    this.#process =
      shell ??
      (modules.interpreter !== undefined
        ? spawnShimHolder(
            modules.interpreter,
            modules.args ?? [modules.entry, modules.target],
            { id, targetPath },
            options.env,
          )
        : spawnHolderProcess(argv, options.env));
    let stderr = '';
    this.#process.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 32_000) stderr += chunk.toString();
    });
    // Teardown is not a fault: end the process without writing a kill into the evidence.
    this.#unregister = cleanupProcess(`holder ${id}`, this.#process.pid, async () => {
      this.#signal('SIGCONT');
      this.#signal('SIGKILL');
      await this.exited;
    });
    this.exited = new Promise<{ code: number | undefined; signal: string | undefined }>((resolve) => {
      // 'close': once its output is read too (a load failure's message); 'error': it never started.
      this.#process.once('close', (code, signal) => resolve({ code: code ?? undefined, signal: signal ?? undefined }));
      this.#process.once('error', () => resolve({ code: undefined, signal: undefined }));
    }).then((result) => {
      this.#exit = { t: ctx.history.now(), code: result.code, signal: result.signal };
      this.ctx.history.add('holder-exit', id, { code: result.code ?? null, signal: result.signal ?? null });
      for (const settle of this.#calls.values()) {
        settle({
          ok: false,
          error: `holder ${id} exited (${result.signal ?? `code ${result.code}`}) before answering`,
        });
      }
      this.#calls.clear();
      return this.#exit;
    });
    let settle: { resolve: (info: ReadyInfo) => void; reject: (error: Error) => void } | undefined;
    this.ready = new Promise<ReadyInfo>((resolve, reject) => (settle = { resolve, reject }));
    const { resolve, reject } = settle!;
    void this.exited.then(() =>
      reject(new Error(`holder ${id} exited while loading ${targetPath}:\n${stderr.trim() || '(no output)'}`)),
    );
    this.#pipes = new HolderPipes(
      this.#process,
      (raw) => {
        const message = raw as FromHolder;
        this.#inOrder(message, () => this.#onMessage(message, resolve, reject));
      },
      (line) => this.ctx.history.add('log', this.id, { message: `not a protocol message: ${line.slice(0, 200)}` }),
    );
    if (shell) this.#pipes.send({ t: 'become', entryUrl: pathToFileURL(modules.entry).href, argv });
    this.ready.then(
      () => (this.#readySettled = true),
      () => (this.#readySettled = true),
    );
  }

  /** What this holder is still busy with (for a run that ends at its deadline): empty when idle. */
  pending(): string[] {
    if (this.#exit) return [];
    if (!this.#readySettled) return [`holder ${this.id}: loading the target (its import has not settled)`];
    const latches = [...this.#effectLatches, ...this.#seamLatches.values()].filter(
      (l): l is Latch => l !== undefined && l.isReached && !l.isReleased,
    );
    return [
      ...[...this.#inFlight.values()].map((what) => `holder ${this.id}: ${what} has not returned`),
      ...latches.map((l) => `holder ${this.id}: held at ${l.point}`),
      ...this.#effectGates
        .filter((g) => g.isReached && !g.isReleased)
        .map((g) => `holder ${this.id}: ${g.heldCount} effect(s) held on their way to the resource`),
    ];
  }

  /** The language the target is written in (its members are spelled that way: member-spelling.ts). */
  get language(): HolderLanguage {
    return this.#language;
  }

  get pid(): number | undefined {
    return this.#process.pid;
  }

  get isPaused(): boolean {
    return this.#stopped !== undefined;
  }

  get exit(): HolderExit | undefined {
    return this.#exit;
  }

  /**
   * How this process ended when it ended without the harness asking (a crash, process.exit in
   * the target), e.g. "exit code 3"; undefined while it runs or when it was closed or killed.
   */
  get endedOnItsOwn(): string | undefined {
    if (this.#endRequested) return undefined;
    if (this.#exit) return this.#exit.signal ? `killed by ${this.#exit.signal}` : `exit code ${this.#exit.code}`;
    // Exited, not yet reaped: its exit status is on the way.
    return this.pid !== undefined && processEnded(this.pid) ? 'exited' : undefined;
  }

  /**
   * A file store: handle each message from the holder only once the harness has the filesystem
   * reports the holder sent before it (they come on their own socket), so that the history, and
   * a trace, keep the holder's order. Messages stay in their own order meanwhile.
   */
  orderAfterFsReports(seen: (id: number) => Promise<void> | undefined): void {
    this.#fsReport = seen;
  }

  /** Tell a file store's holder that a hold is armed on its filesystem boundaries (each call waits), or that none is. */
  gateFs(wait: boolean): void {
    this.#refuseNodeOnly(
      'a hold on its filesystem calls',
      "the node:fs preload that reports and holds them wraps Node's fs module inside the holder",
    );
    this.#send({ t: 'fs-gate', wait });
  }

  #inOrder(message: FromHolder, handle: () => void): void {
    const before = message.fsSeq === undefined ? undefined : this.#fsReport?.(message.fsSeq);
    if (!before && !this.#inbox) return handle();
    const inbox: Promise<void> = (this.#inbox ?? Promise.resolve())
      .then(() => before && Promise.race([before, this.exited]))
      .then(handle);
    this.#inbox = inbox;
    void inbox.finally(() => {
      if (this.#inbox === inbox) this.#inbox = undefined;
    });
  }

  #onMessage(message: FromHolder, resolve: (info: ReadyInfo) => void, reject: (error: Error) => void): void {
    switch (message.t) {
      case 'ready': {
        const problem = handshakeProblem(message);
        if (problem !== undefined) {
          reject(new UsageError(`the holder for ${this.targetPath} ${problem}`));
          break;
        }
        this.ctx.history.add('holder-ready', this.id, {
          pid: message.pid,
          members: message.members,
          ...(message.language !== 'node' ? { language: message.language, runtime: message.runtime } : {}),
          ...(this.#fromShell ? { bootedWithTheCli: true } : {}),
          ...(this.#fromShell === 'loaded ahead' ? { loadedTheTargetAhead: true } : {}),
        });
        resolve(message);
        break;
      }
      case 'load-error':
        reject(loadError(this.targetPath, message, this.#interpreter));
        break;
      case 'result':
        this.#calls.get(message.id)?.(message.ok ? message : { ...message, threw: true });
        this.#calls.delete(message.id);
        break;
      case 'effect':
        void this.#onEffect(message.id, message.name, message.detail, message.at);
        break;
      case 'seam':
        void this.#onSeam(message.id, message.name);
        break;
      case 'log':
        this.ctx.history.add('log', this.id, { message: message.message });
        break;
    }
  }

  async #onEffect(
    id: number,
    name: string,
    detail: { fence?: number; value?: unknown },
    holderAt?: number,
  ): Promise<void> {
    await this.#throughEffectGates(name);
    const keep = this.#beforeEffect ? await this.#beforeEffect(name) : undefined;
    const t = this.ctx.history.now();
    const record = this.ctx.resource.record(this.id, name, detail, t, holderAt);
    keep?.(record.seq);
    this.ctx.history.add(record.accepted ? 'effect-accepted' : 'effect-rejected', this.id, {
      seq: record.seq,
      name,
      ...(record.fence !== undefined ? { fence: record.fence } : {}),
      ...(record.value !== undefined ? { value: record.value } : {}),
      ...(record.reason ? { reason: record.reason } : {}),
    });
    for (const observe of this.#observers) observe('effect', name);
    const latch = this.#effectLatches.shift();
    if (latch) await this.#hold(latch, { seq: record.seq, name });
    const receipt = { accepted: record.accepted, seq: record.seq, ...(record.reason ? { reason: record.reason } : {}) };
    this.#send({ t: 'effect-reply', id, outcome: 'definite', receipt });
  }

  /** Effects held on their way to the resource (EffectGate): recorded as faults, delivered in order on release. */
  async #throughEffectGates(name: string): Promise<void> {
    const arrivedAt = this.ctx.history.now();
    for (const gate of this.#effectGates) {
      const held = gate.admit(arrivedAt, { name });
      if (!held) continue;
      const fault = this.ctx.faults.apply('latch', this.id, `effect "${name}" held on its way to the resource`, {
        name,
        gate: gate.what,
      });
      await held;
      this.ctx.faults.lift(fault, { deliveredAfterMs: this.ctx.history.now() - arrivedAt });
    }
    this.#effectGates = this.#effectGates.filter((gate) => !gate.isReleased);
  }

  async #onSeam(id: number, name: string): Promise<void> {
    for (const observe of this.#observers) observe('seam', name);
    const latch = this.#seamLatches.get(name);
    if (latch) {
      this.#seamLatches.delete(name);
      await this.#hold(latch, { seam: name });
    }
    this.#send({ t: 'seam-reply', id });
  }

  async #hold(latch: Latch, detail: Record<string, unknown>): Promise<void> {
    const fault = this.ctx.faults.apply('latch', this.id, `held at ${latch.point}`, detail);
    this.ctx.history.add('latch-reached', this.id, { point: latch.point, ...detail });
    await latch.arrive({ t: fault.appliedAt, detail });
    this.ctx.faults.lift(fault);
    this.ctx.history.add('latch-released', this.id, { point: latch.point });
  }

  #send(message: ToHolder): void {
    if (this.#exit) return;
    this.#pipes.send(message);
  }

  /** One request to the holder; with `deadlineMs`, a call that never answers settles as an error. */
  #request(
    message: RequestBody,
    deadlineMs?: number,
  ): Promise<{ ok: boolean; value?: unknown; error?: string; threw?: true } & HolderSpan> {
    if (this.#exit) return Promise.resolve({ ok: false, error: `holder ${this.id} has exited` });
    const id = this.#nextId++;
    const what =
      message.t === 'call'
        ? `${message.member}()`
        : message.t === 'init'
          ? 'connect()'
          : message.t === 'clock'
            ? `clock ${message.command.op}`
            : message.t;
    this.#inFlight.set(id, what);
    return new Promise((resolve) => {
      const timer =
        deadlineMs === undefined
          ? undefined
          : setTimeout(() => {
              this.#calls.delete(id);
              this.#inFlight.delete(id);
              resolve({
                ok: false,
                error: `${what} did not return within ${deadlineMs} ms: a lock call must try once and return (a blocking acquire never hands control back)`,
              });
            }, deadlineMs);
      this.#calls.set(id, (result) => {
        clearTimeout(timer);
        this.#inFlight.delete(id);
        resolve(result);
      });
      this.#send({ ...message, id } as ToHolder);
    });
  }

  /** Connect the target; resolves with where it says its lock lives (its storeKey), if it says. */
  async init(init: HolderInit): Promise<StoreLocation | undefined> {
    await this.ready;
    const result = await this.#request({ t: 'init', init }, CALL_DEADLINE_MS);
    if (!result.ok) throw new TargetCallError(this.id, 'connect', result.error ?? '');
    const storeKey = (result.value as InitReply | null)?.storeKey;
    const problem = storeKey === undefined ? undefined : storeKeyProblem(storeKey);
    if (problem !== undefined) throw new UsageError(problem);
    return storeKey;
  }

  /**
   * Try once to take the lock. Throws TargetCallError when the target's acquire throws or never
   * returns (a denial is null, never a throw); a holder that died meanwhile got nothing (null, and
   * the run is INCONCLUSIVE for the death).
   */
  async acquire(): Promise<LeaseSummary | null> {
    const result = await this.#request({ t: 'call', member: 'acquire', args: [] }, CALL_DEADLINE_MS);
    if (!result.ok && !result.threw && this.endedOnItsOwn) return null;
    if (!result.ok) throw new TargetCallError(this.id, 'acquire', result.error ?? '');
    const lease = result.value as LeaseSummary | null;
    this.ctx.history.add(lease ? 'acquire-ok' : 'acquire-denied', this.id, lease ? { ...lease } : {});
    return lease;
  }

  async release(lease: LeaseSummary): Promise<CallOutcome> {
    const outcome = await this.call('release', [], lease.leaseId);
    this.ctx.history.add('release', this.id, {
      leaseId: lease.leaseId,
      ok: outcome.ok,
      ...(outcome.error ? { error: firstLine(outcome.error) } : {}),
    });
    return outcome;
  }

  /** Extend a lease: `extended` only when the target returned true (a throw is `outcome.threw`). */
  async extend(lease: LeaseSummary, ttlMs: number): Promise<{ extended: boolean; outcome: CallOutcome }> {
    const outcome = await this.call('extend', [ttlMs], lease.leaseId);
    const extended = outcome.ok && outcome.value === true;
    this.ctx.history.add(extended ? 'extend-ok' : 'extend-failed', this.id, {
      leaseId: lease.leaseId,
      ttlMs,
      ...(outcome.error ? { error: firstLine(outcome.error) } : {}),
    });
    return { extended, outcome };
  }

  /** Call any member; never throws: the outcome says whether it returned or threw. */
  async call(member: string, args: Scalar[] = [], leaseId?: number): Promise<CallOutcome> {
    const startedAt = this.ctx.history.now();
    if (!['release', 'extend'].includes(member)) this.ctx.history.add('call-start', this.id, { member });
    const result = await this.#request({ t: 'call', member, args, ...(leaseId !== undefined ? { leaseId } : {}) });
    const endedAt = this.ctx.history.now();
    if (!['release', 'extend'].includes(member)) {
      this.ctx.history.add(result.ok ? 'call-end' : 'call-error', this.id, {
        member,
        ...(result.error ? { error: firstLine(result.error) } : {}),
      });
    }
    const span =
      result.began !== undefined && result.ended !== undefined
        ? { holderSpan: { began: result.began, ended: result.ended } }
        : {};
    return {
      ok: result.ok,
      startedAt,
      endedAt,
      ...span,
      ...(result.ok
        ? { value: result.value }
        : { error: result.error ?? '', ...(result.threw ? { threw: true as const } : {}) }),
    };
  }

  /** The next effect this holder reports will block until the latch is released. */
  holdNextEffect(): Latch {
    const latch = new Latch(this.id, `effect #${this.#effectLatches.length + 1} from now`);
    this.#effectLatches.push(latch);
    return latch;
  }

  /** The `nth` effect this holder reports from now blocks until the latch is released (the ones before pass). */
  holdEffect(nth: number): Latch {
    const latch = new Latch(this.id, `effect #${this.#effectLatches.length + nth} from now`);
    for (let i = 1; i < nth; i++) this.#effectLatches.push(undefined);
    this.#effectLatches.push(latch);
    return latch;
  }

  /**
   * Hold this holder's effects on their way to the resource, from the `nth` effect it reports
   * from now (only that one, or it and all after it): the resource receives them, in order, only
   * when the gate is released (src/holder/effect-gate.ts).
   */
  gateEffects(options: EffectGateOptions): EffectGate {
    const gate = new EffectGate(this.id, options);
    this.#effectGates.push(gate);
    return gate;
  }

  /**
   * From now on, before each effect this holder reports is recorded at the resource, `read` runs
   * and the effect waits for it: the harness reads the store at the instant the write arrives, before
   * it is accepted. Each reading is kept, with the arrival seq of the effect it preceded, in the
   * returned list (filled as effects come). A read that throws keeps nothing and lets the effect on.
   */
  readBeforeEffects<T>(read: (name: string) => Promise<T>): Array<{ seq: number; reading: T }> {
    const readings: Array<{ seq: number; reading: T }> = [];
    this.#beforeEffect = async (name) => {
      const reading = await read(name).catch(() => undefined);
      return (seq) => {
        if (reading !== undefined) readings.push({ seq, reading });
      };
    };
    return readings;
  }

  /** Be told of every seam this holder reaches and every effect it reports (exploration's trace). */
  observe(listener: (kind: 'seam' | 'effect', name: string) => void): void {
    this.#observers.push(listener);
  }

  /** The next time this holder reaches `env.seam(name)` it blocks until the latch is released. */
  holdSeam(name: string): Latch {
    const latch = new Latch(this.id, `seam ${name}`);
    this.#seamLatches.set(name, latch);
    return latch;
  }

  /**
   * SIGSTOP: the process, its timers and its renewals all stop. Resolves once the kernel reports
   * the process stopped, so whatever the scenario does next happens while it really is.
   */
  async pause(): Promise<FaultRecord> {
    const fault = this.ctx.faults.apply('pause', this.id, 'SIGSTOP', { pid: this.pid });
    this.#signal('SIGSTOP');
    this.#stopped = fault;
    if (this.pid !== undefined && !this.#exit) await waitUntilStopped([this.pid]);
    return fault;
  }

  /** SIGCONT after pause(); returns how long the process was stopped. */
  resume(): number {
    const fault = this.#stopped;
    if (!fault) return 0;
    this.#signal('SIGCONT');
    this.#stopped = undefined;
    this.ctx.faults.lift(fault, { signal: 'SIGCONT' });
    return (fault.liftedAt ?? 0) - fault.appliedAt;
  }

  /** SIGKILL, then wait for the process to be gone. */
  async kill(): Promise<HolderExit> {
    if (this.#exit) return this.#exit;
    this.#endRequested = true;
    this.ctx.faults.apply('kill', this.id, 'SIGKILL', { pid: this.pid });
    this.#signal('SIGCONT');
    this.#signal('SIGKILL');
    return this.exited;
  }

  /**
   * Step, skew or drive this holder's own wall clock (src/holder/holder-clock.ts). Recorded in the
   * history as a clock-step (harness monotonic time, the command, and the holder's clocks after it)
   * unless `record` is false (a simulated day's thousands of quiet advances).
   */
  async clock(command: ClockCommand, record = true): Promise<ClockReply> {
    this.#refuseNodeOnly(
      `its own clock (${command.op})`,
      "V316's Date-only step and V319's simulated day fake JavaScript's Date and timers inside a Node holder",
    );
    const sentAt = this.ctx.history.now();
    const result = await this.#request({ t: 'clock', command });
    if (!result.ok) throw new Error(`holder ${this.id}: clock ${command.op} failed:\n${result.error ?? ''}`);
    const reply = result.value as ClockReply;
    if (record) this.ctx.history.add('clock-step', this.id, { sentAt, ...command, ...reply });
    return reply;
  }

  /**
   * Begin this holder's graceful shutdown while it works, as a deploy stops a worker: `close` calls
   * the target's own close member (it runs while the job goes on); `sigterm` sends SIGTERM, for a
   * target that handles it. Resolves when close returned (`close`), or when the process exited or
   * `graceMs` passed (`sigterm`); the outcome says which.
   */
  async shutdown(by: 'close' | 'sigterm', graceMs: number): Promise<ShutdownOutcome> {
    const fault = this.ctx.faults.apply('shutdown', this.id, by === 'close' ? 'close() called' : 'SIGTERM', {
      pid: this.pid,
    });
    if (by === 'sigterm') {
      this.#signal('SIGTERM');
      let stopWaiting = () => {};
      const grace = new Promise<undefined>((resolve) => {
        const timer = setTimeout(resolve, graceMs);
        stopWaiting = () => clearTimeout(timer);
      });
      const exit = await Promise.race([this.exited, grace]);
      stopWaiting();
      this.ctx.faults.lift(
        fault,
        exit ? { exit: exit.signal ?? `code ${exit.code}` } : { stillRunningAfterMs: graceMs },
      );
      return exit ? { by, exited: exit.signal ?? `exit code ${exit.code}` } : { by, running: true };
    }
    const result = await this.#request({ t: 'shutdown' });
    this.ctx.faults.lift(fault, result.ok ? {} : { error: firstLine(result.error ?? '') });
    return result.ok ? { by, closed: true } : { by, threw: result.error ?? '' };
  }

  /** Ask a long-running member (job, leader, schedule) to stop via env.signal. */
  abort(): void {
    this.#send({ t: 'abort' });
  }

  /** Let the target close its clients, then end the process (SIGKILL after `graceMs`). */
  async close(graceMs = 2000): Promise<void> {
    this.#endRequested = true;
    for (const latch of this.#effectLatches.splice(0)) latch?.release();
    for (const gate of this.#effectGates.splice(0)) gate.release();
    for (const latch of this.#seamLatches.values()) latch.release();
    this.#seamLatches.clear();
    if (this.#stopped) this.resume();
    if (!this.#exit) {
      void this.#request({ t: 'close' });
      const timer = setTimeout(() => this.#signal('SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    await this.#unregister();
  }

  /** A fault only a Node holder supports (docs/holder-protocol.md, "Capabilities by language"): a usage error for the others. */
  #refuseNodeOnly(what: string, why: string): void {
    if (this.#language === 'node') return;
    throw new UsageError(
      `holder ${this.id} runs ${this.targetPath} in ${this.#language}: this run needs ${what}, which only a Node holder has (${why}). ` +
        'Run a fault every language gets (SIGSTOP, SIGKILL, wire holds, the clock-offset library); see docs/holder-protocol.md, "Capabilities by language".',
    );
  }

  #signal(name: NodeJS.Signals): void {
    const pid = this.pid;
    if (pid === undefined || this.#exit) return;
    try {
      process.kill(pid, name);
    } catch {
      /* raced with exit */
    }
  }
}

/** How a graceful shutdown went: close returned or threw; after SIGTERM the process exited or still ran. */
export type ShutdownOutcome =
  | { by: 'close'; closed: true }
  | { by: 'close'; threw: string }
  | { by: 'sigterm'; exited: string }
  | { by: 'sigterm'; running: true };

type RequestBody =
  | { t: 'init'; init: HolderInit }
  | { t: 'call'; member: string; leaseId?: number; args: Scalar[] }
  | { t: 'clock'; command: ClockCommand }
  | { t: 'close' }
  | { t: 'shutdown' };

/** True when `pid` is gone or a zombie (exited, not yet reaped); false where there is no /proc. */
function processEnded(pid: number): boolean {
  if (!existsSync('/proc/self/stat')) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] === 'Z';
  } catch {
    return true;
  }
}
