/**
 * One direction of a proxied connection: an ordered queue of byte chunks on their way to a socket.
 * A chunk waits while the lane is blackholed, while it is (or follows) a held command, or until
 * its delay has passed; nothing overtakes what is in front of it, except on a multiplexed
 * connection (HTTP/2: chunks carry their stream): there a chunk waits only behind what stops its
 * own stream, and stream 0's (SETTINGS, PING, WINDOW_UPDATE) behind nothing but a blackhole.
 */
import type { Socket } from 'node:net';
import type { WireHold } from './hold.ts';

interface Item {
  bytes: Buffer;
  /** performance.now() before which it must not be written (delay). */
  dueAt: number;
  /** The hold that stops the lane at this item. */
  gate?: WireHold;
  /** Its HTTP/2 stream; absent: it keeps its place behind everything in front of it. */
  stream?: number;
}

export class Lane {
  private items: Item[] = [];
  private timer: NodeJS.Timeout | undefined;
  private blackholed = false;
  private sourceEnded = false;

  constructor(private readonly sink: Socket) {}

  push(bytes: Buffer, dueAt: number, gate?: WireHold, stream?: number): void {
    if (this.sink.destroyed) {
      gate?.abandon('its connection was already closed on the other side; nothing to hold');
      return;
    }
    this.items.push({ bytes, dueAt, ...(gate ? { gate } : {}), ...(stream !== undefined ? { stream } : {}) });
    this.flush();
  }

  /** The holds currently stopping this lane for a chunk of `stream` (what a newly arriving command queues behind). */
  gates(stream?: number): WireHold[] {
    return this.items.flatMap((item) =>
      item.gate?.holding && (stream === undefined || item.stream === undefined || item.stream === stream)
        ? [item.gate]
        : [],
    );
  }

  setBlackholed(on: boolean): void {
    this.blackholed = on;
    this.flush();
  }

  /** The sending side finished: end the sink once everything queued is written. */
  endAfterDrain(): void {
    this.sourceEnded = true;
    this.flush();
  }

  /** Throw away everything queued (the connection is being reset); returns the holds that kept bytes. */
  discard(): WireHold[] {
    const held = this.gates();
    this.items = [];
    clearTimeout(this.timer);
    return held;
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.sink.destroyed || this.blackholed) return;
    const waiting: Item[] = [];
    /** What stopped: every later unkeyed chunk waits (`all`), and every later chunk of a stopped stream. */
    let all = false;
    const stopped = new Set<number>();
    let nextDue = Infinity;
    for (const item of this.items) {
      const stream = item.stream;
      const behind = stream === undefined ? all || stopped.size > 0 : all || stopped.has(stream);
      const due = item.dueAt - performance.now();
      if (behind || item.gate?.holding || due > 0) {
        waiting.push(item);
        if (due > 0) nextDue = Math.min(nextDue, due);
        if (stream === undefined) all = true;
        else stopped.add(stream);
        continue;
      }
      this.sink.write(item.bytes);
    }
    this.items = waiting;
    if (nextDue < Infinity) this.timer = setTimeout(() => this.flush(), Math.ceil(nextDue));
    if (!this.items.length && this.sourceEnded && !this.sink.writableEnded) this.sink.end();
  }
}
