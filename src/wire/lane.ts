/**
 * One direction of a proxied connection: an ordered queue of byte chunks on their way to a socket.
 * A chunk waits while the lane is blackholed, while it is (or follows) a held command, or until
 * its delay has passed; nothing ever overtakes what is in front of it.
 */
import type { Socket } from 'node:net';
import type { WireHold } from './hold.ts';

interface Item {
  bytes: Buffer;
  /** performance.now() before which it must not be written (delay). */
  dueAt: number;
  /** The hold that stops the lane at this item. */
  gate?: WireHold;
}

export class Lane {
  private items: Item[] = [];
  private timer: NodeJS.Timeout | undefined;
  private blackholed = false;
  private sourceEnded = false;

  constructor(private readonly sink: Socket) {}

  push(bytes: Buffer, dueAt: number, gate?: WireHold): void {
    if (this.sink.destroyed) {
      gate?.abandon('its connection was already closed on the other side; nothing to hold');
      return;
    }
    this.items.push(gate ? { bytes, dueAt, gate } : { bytes, dueAt });
    this.flush();
  }

  /** The holds currently stopping this lane (what a newly arriving command queues behind). */
  gates(): WireHold[] {
    return this.items.flatMap((item) => (item.gate?.holding ? [item.gate] : []));
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
    if (this.sink.destroyed) return;
    while (this.items.length && !this.blackholed) {
      const item = this.items[0]!;
      if (item.gate?.holding) return;
      const wait = item.dueAt - performance.now();
      if (wait > 0) {
        this.timer = setTimeout(() => this.flush(), Math.ceil(wait));
        return;
      }
      this.items.shift();
      this.sink.write(item.bytes);
    }
    if (!this.items.length && !this.blackholed && this.sourceEnded && !this.sink.writableEnded) this.sink.end();
  }
}
