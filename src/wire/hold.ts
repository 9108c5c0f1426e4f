/**
 * A held command: the proxy stops one holder's stream in front of the command that matches, keeps
 * that command and everything the holder sends after it on that connection (in order), and
 * forwards those bytes untouched when the harness releases the hold. `reached` resolves the moment
 * the command arrives, so a scenario reacts to the event instead of sleeping.
 */
import { describePattern, matchesPattern, type CommandPattern, type WireCommand } from './command.ts';
import type { WireFaultLog, WireFaultRecord } from './records.ts';

export interface HeldCommand {
  readonly holder: string;
  readonly connection: number;
  readonly command: WireCommand;
  /** When it arrived at the proxy (the harness's monotonic ms). */
  readonly atMs: number;
}

export interface HoldOptions {
  /** Hold the nth matching command (default 1: the first). */
  nth?: number;
  /** Only on this connection id (default: any connection of this holder). */
  connection?: number;
  /** Stop in front of the command (default), or in front of the store's reply to it. */
  on?: 'command' | 'reply';
}

export class WireHold {
  readonly reached: Promise<HeldCommand>;
  readonly record: WireFaultRecord;
  private state: 'armed' | 'holding' | 'done' = 'armed';
  private seen = 0;
  private resolveReached!: (held: HeldCommand) => void;
  private rejectReached!: (error: Error) => void;

  private readonly patterns: readonly CommandPattern[];

  constructor(
    pattern: CommandPattern | readonly CommandPattern[],
    private readonly options: HoldOptions,
    private readonly log: WireFaultLog,
    /** Called after release so the connection forwards what it kept. */
    private readonly afterRelease: () => void,
  ) {
    this.patterns = Array.isArray(pattern) ? pattern : [pattern as CommandPattern];
    const nth = options.nth ?? 1;
    if (!Number.isInteger(nth) || nth < 1) throw new Error(`hold: nth must be a positive integer, got ${nth}`);
    const where = options.connection === undefined ? '' : ` on connection #${options.connection}`;
    const reply = options.on === 'reply';
    const what = `${nth > 1 ? `the ${nth}th ` : ''}${this.patterns.map(describePattern).join(' or ')}${where}`;
    this.record = log.open(reply ? 'hold-reply' : 'hold', reply ? `hold the reply to ${what}` : `hold ${what}`, false);
    this.reached = new Promise<HeldCommand>((resolve, reject) => {
      this.resolveReached = resolve;
      this.rejectReached = reject;
    });
    this.reached.catch(() => {}); // a hold nobody awaits must not crash the run when cancelled
  }

  /** True while the matched command is being kept back. */
  get holding(): boolean {
    return this.state === 'holding';
  }

  get armed(): boolean {
    return this.state === 'armed';
  }

  /** A connection offers each command it sees; true when this hold takes it. */
  offer(connection: number, command: WireCommand): boolean {
    if (this.state !== 'armed') return false;
    if (this.options.connection !== undefined && this.options.connection !== connection) return false;
    if (!this.patterns.some((pattern) => matchesPattern(command, pattern))) return false;
    this.seen++;
    if (this.seen < (this.options.nth ?? 1)) return false;
    this.state = 'holding';
    this.record.command = command.text;
    this.log.touch(this.record, connection, command.text);
    this.log.land(this.record);
    this.resolveReached({ holder: this.log.holder, connection, command, atMs: this.record.fromMs ?? this.log.now() });
    return true;
  }

  /** Forward the held bytes (or disarm, when the command never came). Safe to call twice. */
  release(): void {
    if (this.state === 'armed') this.cancel('released before its command arrived: nothing was held');
    if (this.state !== 'holding') return;
    this.state = 'done';
    this.log.close(this.record);
    this.afterRelease();
  }

  /** Disarm a hold whose command has not arrived; `reached` rejects with `note`. */
  cancel(note: string): void {
    if (this.state !== 'armed') return;
    this.state = 'done';
    this.log.close(this.record, note);
    this.rejectReached(new Error(`${this.record.what} (holder ${this.log.holder}) never reached: ${note}`));
  }

  /** The connection went away while this hold kept its bytes. */
  abandon(note: string): void {
    if (this.state !== 'holding') return;
    this.state = 'done';
    this.log.close(this.record, note);
  }
}
