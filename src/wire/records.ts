/**
 * What the evidence says about every wire fault: which holder and connections it hit, which
 * command was held, and from when to when (the harness's monotonic ms).
 */
export type WireFaultKind = 'drop' | 'refuse' | 'blackhole' | 'gate' | 'delay' | 'hold' | 'hold-reply';

export interface WireFaultRecord {
  readonly id: number;
  readonly holder: string;
  readonly kind: WireFaultKind;
  /** One line: what was asked ("hold DEL", "delay 50 ms", "drop, refusing new connections"). */
  readonly what: string;
  /** When the harness asked for it. */
  readonly armedMs: number;
  /** When it landed: drop/blackhole/gate/delay at once; a hold when its command arrived. Null = never landed. */
  fromMs: number | null;
  /** When it was lifted or released; null while in force. */
  toMs: number | null;
  /** Connection ids it affected (reset, stalled, delayed, or the one whose command was held). */
  readonly connections: number[];
  /** hold: the held command's text. */
  command?: string;
  /** Commands it stopped or slowed (blackhole, closed gate, delay, hold: the held one and those queued behind it). */
  commandsAffected: number;
  /** The first few of those commands, for the evidence. */
  readonly sampleCommands: string[];
  /** drop / refuse: new connections reset while it lasted. */
  refusedConnections: number;
  /** How it ended, when it did not end by being lifted or released normally. */
  note?: string;
}

const SAMPLE = 20;

export class WireFaultLog {
  private readonly list: WireFaultRecord[] = [];
  private nextId = 1;

  constructor(
    readonly holder: string,
    private readonly clock: () => number,
    /** Told when a fault lands and when it is lifted (the proxy turns this into an event). */
    private readonly notify: (phase: 'landed' | 'lifted', record: WireFaultRecord) => void,
  ) {}

  open(kind: WireFaultKind, what: string, landsNow: boolean): WireFaultRecord {
    const now = this.clock();
    const record: WireFaultRecord = {
      id: this.nextId++,
      holder: this.holder,
      kind,
      what,
      armedMs: now,
      fromMs: landsNow ? now : null,
      toMs: null,
      connections: [],
      commandsAffected: 0,
      sampleCommands: [],
      refusedConnections: 0,
    };
    this.list.push(record);
    if (landsNow) this.notify('landed', snapshot(record));
    return record;
  }

  touch(record: WireFaultRecord, connection: number, command?: string): void {
    if (!record.connections.includes(connection)) record.connections.push(connection);
    if (command === undefined) return;
    record.commandsAffected++;
    if (record.sampleCommands.length < SAMPLE) record.sampleCommands.push(`#${connection} ${command}`);
  }

  land(record: WireFaultRecord): void {
    if (record.fromMs !== null) return;
    record.fromMs = this.clock();
    this.notify('landed', snapshot(record));
  }

  close(record: WireFaultRecord, note?: string): void {
    if (record.toMs !== null) return;
    record.toMs = this.clock();
    if (note) record.note = note;
    this.notify('lifted', snapshot(record));
  }

  /** Close every record still in force (the proxy is going away). */
  closeAll(note: string): void {
    for (const record of this.list) this.close(record, note);
  }

  now(): number {
    return this.clock();
  }

  /** A snapshot for the evidence. */
  records(): WireFaultRecord[] {
    return this.list.map(snapshot);
  }
}

function snapshot(record: WireFaultRecord): WireFaultRecord {
  return { ...record, connections: [...record.connections], sampleCommands: [...record.sampleCommands] };
}
