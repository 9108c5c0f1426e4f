/**
 * A run's holder processes, as one resource of its scope: the ones started ahead for it (a batch's
 * warm pool, src/run/run-ahead.ts) and every one it spawns, with the history, resource and fault log
 * they report into; made once the request is resolved, so the run's history begins there (or, for
 * holders started ahead, when they were started). Released (closed, then killed) with the run, with
 * a short grace when the run ended at its deadline or on a signal.
 */
import { relative } from 'node:path';
import { FaultLog } from '../../core/fault-log.ts';
import { History } from '../../core/history.ts';
import { Resource } from '../../core/resource.ts';
import { memberSpelling } from '../../holder/member-spelling.ts';
import { UsageError } from '../../core/errors.ts';
import {
  compileHolderModules,
  Holder,
  type HolderContext,
  type HolderModules,
  type HolderSpawnOptions,
  type ReadyInfo,
} from '../../holder/holder.ts';
import type { PreparedRun } from '../run-ahead.ts';
import { displayPath } from './display-path.ts';
import type { RunScope, Ending } from './run-scope.ts';

/** What a loaded holder must offer: the target it loads and the members the oracle calls. */
export interface TargetFit {
  oracleId: string;
  targetPath: string;
  needs: readonly string[];
}

/** How long a holder may take to close when the run is hurried (deadline, signal) before it is killed. */
const HURRIED_GRACE_MS = 500;

/** Ends the holders started ahead for a run whose request was then refused: they were never put to use. */
export async function closePrepared(prepared: PreparedRun | undefined): Promise<void> {
  await Promise.all([...(prepared?.holders.values() ?? [])].map((holder) => holder.close(0).catch(() => undefined)));
}

export class RunHolders {
  readonly ctx: HolderContext;
  readonly #scope: RunScope;
  readonly #spawned: Map<string, Holder>;
  #modules: HolderModules | undefined;

  constructor(scope: RunScope, prepared: PreparedRun | undefined) {
    const history = prepared?.ctx.history ?? new History();
    this.ctx = prepared?.ctx ?? { history, resource: new Resource(), faults: new FaultLog(history) };
    this.#scope = scope;
    this.#spawned = new Map(prepared?.holders);
    this.#modules = prepared?.modules;
    scope.add('the holder processes', (ending) => this.#closeAll(ending));
  }

  /** Compiles the target for the holders (once; a prepared run's is already compiled). */
  async load(targetPath: string): Promise<void> {
    this.#modules ??= await compileHolderModules(targetPath).catch((e: unknown) => {
      throw new UsageError(`the target ${displayPath(targetPath)} failed to load: ${(e as Error).message}`);
    });
  }

  /** The holder `id`: the one already started, unless options ask for a fresh one. */
  spawn(id: string, options?: HolderSpawnOptions): Holder {
    const ready = this.#spawned.get(id);
    if (ready && !options?.env) return ready;
    if (!this.#scope.open) throw new Error(`the run has ended; holder ${id} is not started`);
    if (!this.#modules) throw new Error(`holder ${id} was asked for before the target was compiled`);
    // One started ahead without the environment asked for is replaced, and ended now rather than with the run.
    if (ready) void ready.close(0).catch(() => undefined);
    const holder = new Holder(id, this.#modules, this.ctx, options);
    this.#spawned.set(id, holder);
    return holder;
  }

  /** The holder once it has loaded the target; a load failure or a missing member is a usage error, whenever it shows. */
  async usable(holder: Holder, fit: TargetFit): Promise<ReadyInfo> {
    const info = await holder.ready.catch((e: unknown) => {
      throw new UsageError(
        `the target ${displayPath(fit.targetPath)} failed to load in a holder process:\n${(e as Error).message}`,
      );
    });
    const missing = fit.needs.filter((member) => !info.members.includes(member));
    if (missing.length) {
      // Named as the target's own language spells them (Python store_key, Go StoreKey).
      const spelled = (members: readonly string[]) => members.map((m) => memberSpelling(holder.language, m)).join(', ');
      throw new UsageError(
        `${relative(process.cwd(), fit.targetPath)} does not fit ${fit.oracleId}: it has no ${spelled(missing)} member(s) ` +
          `(it has: ${spelled(info.members) || 'none'}). ${fit.oracleId} calls ${spelled(fit.needs)}; see targets/contract.ts${holder.language === 'node' ? '' : ` (spelled in ${holder.language} as docs/holder-protocol.md's "Names" says)`}.`,
      );
    }
    return info;
  }

  all(): Holder[] {
    return [...this.#spawned.values()];
  }

  /** What the holders are still busy with, for a run that ends at its deadline. */
  pending(): string[] {
    return this.all().flatMap((h) => h.pending());
  }

  async #closeAll(ending: Ending): Promise<void> {
    const grace = ending === 'finished' ? undefined : HURRIED_GRACE_MS;
    await Promise.all(this.all().map((h) => h.close(grace).catch(() => undefined)));
  }
}
