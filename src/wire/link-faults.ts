/**
 * The faults a cluster's link proxy applies to single messages (src/wire/link-mesh.ts): each is
 * armed with a LinkMatch and lands on the one message it picks out — held until released, delayed,
 * dropped, duplicated, or reordered behind the next message on its connection — or, a partition, on
 * every message between two sides until healed. Each goes into the fault log when it lands.
 */
import type { FaultLog, FaultRecord } from '../core/fault-log.ts';
import { describeLinkMatch, matchesLink, type LinkMatch, type LinkMessage } from './link-match.ts';

/** What happens to one message: forwarded, or the fault that took it. */
export type LinkFate = 'forwarded' | 'held' | 'delayed' | 'dropped' | 'duplicated' | 'reordered' | 'partitioned';

export interface HeldLinkMessage {
  readonly message: LinkMessage;
  /** When it reached the proxy (harness ms). */
  readonly atMs: number;
}

/** One armed fault on one message. */
export abstract class MessageFault {
  readonly what: string;
  #seen = 0;
  #landed = false;
  protected record: FaultRecord | undefined;

  constructor(
    readonly match: LinkMatch,
    action: string,
    protected readonly faults: FaultLog,
  ) {
    this.what = `${action} ${describeLinkMatch(match)}`;
  }

  get landed(): boolean {
    return this.#landed;
  }

  /** Whether this fault takes `message` (the nth match since it was armed); counts the match. */
  takes(message: LinkMessage): boolean {
    if (this.#landed || !matchesLink(this.match, message)) return false;
    this.#seen++;
    if (this.#seen < (this.match.nth ?? 1)) return false;
    this.#landed = true;
    this.record = this.faults.apply('wire', undefined, this.what, {
      link: `${message.from}→${message.to}`,
      message: message.n,
      text: message.text.slice(0, 160),
    });
    return true;
  }

  /** The fate of the message it took, and when to forward it (resolves: now; never: dropped). */
  abstract apply(message: LinkMessage, atMs: number): { fate: LinkFate; copies: number; after: Promise<void> };
}

/** Held until released: the messages behind it on its connection wait too, as on a real stream. */
export class LinkHold extends MessageFault {
  readonly reached: Promise<HeldLinkMessage>;
  #reached!: (held: HeldLinkMessage) => void;
  #release!: () => void;
  readonly #released = new Promise<void>((resolve) => (this.#release = resolve));
  #state: 'armed' | 'holding' | 'done' = 'armed';

  constructor(match: LinkMatch, faults: FaultLog) {
    super(match, 'hold', faults);
    this.reached = new Promise((resolve) => (this.#reached = resolve));
  }

  get holding(): boolean {
    return this.#state === 'holding';
  }
  get armed(): boolean {
    return this.#state === 'armed';
  }

  /** Disarmed (released before it held anything), it takes no later message. */
  override takes(message: LinkMessage): boolean {
    return this.#state === 'armed' && super.takes(message);
  }

  apply(message: LinkMessage, atMs: number) {
    this.#state = 'holding';
    this.#reached({ message, atMs });
    return { fate: 'held' as const, copies: 1, after: this.#released };
  }

  /** Forward the held message (or disarm the hold when nothing was held yet). Safe to call twice. */
  release(): void {
    if (this.#state === 'done') return;
    this.#state = 'done';
    if (this.record) this.faults.lift(this.record);
    this.#release();
  }
}

export class LinkDelay extends MessageFault {
  constructor(
    match: LinkMatch,
    readonly ms: number,
    faults: FaultLog,
  ) {
    super(match, `delay ${ms} ms`, faults);
  }
  apply() {
    const after = new Promise<void>((resolve) => setTimeout(resolve, this.ms)).then(() => {
      if (this.record) this.faults.lift(this.record);
    });
    return { fate: 'delayed' as const, copies: 1, after };
  }
}

export class LinkDrop extends MessageFault {
  constructor(match: LinkMatch, faults: FaultLog) {
    super(match, 'drop', faults);
  }
  apply() {
    return { fate: 'dropped' as const, copies: 0, after: Promise.resolve() };
  }
}

export class LinkDuplicate extends MessageFault {
  constructor(match: LinkMatch, faults: FaultLog) {
    super(match, 'duplicate', faults);
  }
  apply() {
    return { fate: 'duplicated' as const, copies: 2, after: Promise.resolve() };
  }
}

/** Set aside and forwarded right after the next message on its connection (the two swap places). */
export class LinkReorder extends MessageFault {
  constructor(match: LinkMatch, faults: FaultLog) {
    super(match, 'reorder (behind the next message)', faults);
  }
  apply() {
    return { fate: 'reordered' as const, copies: 1, after: Promise.resolve() };
  }
}

/** Every message between two sides dropped while it lasts; `heal()` ends it. */
export class LinkPartition {
  readonly what: string;
  readonly #record: FaultRecord;
  #healed = false;

  constructor(
    readonly sides: ReadonlyArray<readonly string[]>,
    private readonly faults: FaultLog,
  ) {
    this.what = `partition ${sides.map((side) => `{${side.join(', ')}}`).join(' | ')}`;
    this.#record = faults.apply('wire', undefined, this.what, { sides });
  }

  cuts(message: LinkMessage): boolean {
    if (this.#healed) return false;
    const side = (node: string) => this.sides.findIndex((s) => s.includes(node));
    const from = side(message.from);
    const to = side(message.to);
    return from >= 0 && to >= 0 && from !== to;
  }

  heal(): void {
    if (this.#healed) return;
    this.#healed = true;
    this.faults.lift(this.#record);
  }
}
