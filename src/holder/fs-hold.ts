/**
 * A held filesystem boundary: the next call of a holder matching an op and a path (the nth, when
 * asked) is kept before it runs, or its result kept from the holder after it ran, until
 * `release()`. `reached` resolves the moment the holder got there; the hold is a latch in the
 * fault log ("held at rmdir V310.lock").
 */
import type { FaultLog, FaultRecord } from '../core/fault-log.ts';
import type { FsOp, FsReport } from './fs-protocol.ts';

/** Which calls a hold takes: by op (any of them) and by path (exact, or a test on it); both optional. */
export interface FsMatch {
  op?: FsOp | readonly FsOp[];
  path?: string | RegExp | ((path: string) => boolean);
}

export interface FsHoldOptions {
  /** Hold the nth matching call (default 1). */
  nth?: number;
  /** Before the call runs (default), or its result after it ran. */
  on?: 'call' | 'result';
}

export class FsHold {
  readonly reached: Promise<FsReport>;
  readonly released: Promise<void>;
  #state: 'armed' | 'holding' | 'done' = 'armed';
  #seen = 0;
  /** `on: 'result'`: the call whose result is held, once the nth matching call ran. */
  #callId: number | undefined;
  #fault: FaultRecord | undefined;
  #onReached!: (report: FsReport) => void;
  #onReleased!: () => void;

  constructor(
    readonly holder: string,
    readonly match: FsMatch,
    readonly options: FsHoldOptions,
    private readonly faults: FaultLog,
  ) {
    const nth = options.nth ?? 1;
    if (!Number.isInteger(nth) || nth < 1) throw new Error(`an fs hold's nth must be a positive integer, got ${nth}`);
    this.reached = new Promise((resolve) => (this.#onReached = resolve));
    this.released = new Promise((resolve) => (this.#onReleased = resolve));
  }

  get armed(): boolean {
    return this.#state === 'armed';
  }

  get holding(): boolean {
    return this.#state === 'holding';
  }

  /** A report the holder sent; true when this hold takes it (the answer then waits for release). */
  offer(report: FsReport): boolean {
    if (this.#state !== 'armed') return false;
    // Calls are counted, results taken by the call they belong to (an fs.rm reports its own
    // steps' results before its own, so the nth result is not the nth call's).
    if (report.phase === 'result') {
      if (this.#callId === undefined || report.of !== this.#callId) return false;
    } else {
      if (!matches(this.match, report) || ++this.#seen < (this.options.nth ?? 1)) return false;
      if ((this.options.on ?? 'call') === 'result') {
        this.#callId = report.id;
        return false;
      }
    }
    this.#state = 'holding';
    const what = `${report.op} ${report.path}`;
    const action = report.phase === 'call' ? `held before ${what}` : `held the result (${report.result}) of ${what}`;
    this.#fault = this.faults.apply('latch', this.holder, action, { fs: what, form: report.form });
    this.#onReached(report);
    return true;
  }

  /** Let the holder go on (or disarm a hold never reached). Safe to call twice. */
  release(): void {
    if (this.#state === 'done') return;
    this.#state = 'done';
    if (this.#fault) this.faults.lift(this.#fault);
    this.#onReleased();
  }
}

function matches(match: FsMatch, report: FsReport): boolean {
  const ops = match.op === undefined ? undefined : typeof match.op === 'string' ? [match.op] : match.op;
  if (ops && !ops.includes(report.op)) return false;
  if (match.path === undefined) return true;
  if (typeof match.path === 'string') return report.path === match.path;
  return match.path instanceof RegExp ? match.path.test(report.path) : match.path(report.path);
}
