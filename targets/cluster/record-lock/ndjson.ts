/** Newline-delimited JSON over a TCP socket: one message per line, both ways, with request/reply by `rid`. */
import { createConnection, type Socket } from 'node:net';

export type Message = { type: string; rid?: number; [field: string]: unknown };

/** Calls `onMessage` for every whole line the socket receives. */
export function readMessages(socket: Socket, onMessage: (message: Message) => void): void {
  let pending = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    pending += chunk;
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      if (line.trim()) onMessage(JSON.parse(line) as Message);
    }
  });
}

export function send(socket: Socket, message: Message): void {
  if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
}

/** A connection that asks and waits for the reply with the same rid (reconnects after it closed). */
export class Channel {
  #socket: Socket | undefined;
  #nextRid = 1;
  readonly #waiting = new Map<number, (reply: Message) => void>();

  constructor(
    private readonly host: string,
    private readonly port: number,
    /** Messages that answer no request (a home's recall arrives on its own connection, not this one). */
    private readonly onOther: (message: Message) => void = () => undefined,
  ) {}

  /** Send without waiting for anything. */
  tell(message: Message): void {
    send(this.#connected(), message);
  }

  /** Send and wait for the reply, or null when the connection closed or `timeoutMs` passed first. */
  ask(message: Message, timeoutMs: number): Promise<Message | null> {
    const rid = this.#nextRid++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(rid);
        resolve(null);
      }, timeoutMs);
      this.#waiting.set(rid, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
      send(this.#connected(), { ...message, rid });
    });
  }

  close(): void {
    this.#socket?.destroy();
  }

  #connected(): Socket {
    if (this.#socket && !this.#socket.destroyed) return this.#socket;
    const socket = createConnection({ host: this.host, port: this.port });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      for (const settle of this.#waiting.values()) settle({ type: 'closed' });
      this.#waiting.clear();
    });
    readMessages(socket, (message) => {
      const settle = message.rid === undefined ? undefined : this.#waiting.get(message.rid);
      if (!settle) return this.onOther(message);
      this.#waiting.delete(message.rid!);
      settle(message);
    });
    this.#socket = socket;
    return socket;
  }
}
