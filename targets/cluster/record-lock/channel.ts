/** Request/reply by `rid` over a node-to-node (or holder-to-node) transport: ndjson (./ndjson.ts) or WebSocket (./websocket.ts). */
export type Message = { type: string; rid?: number; [field: string]: unknown };

/** One open connection of a transport. */
export interface Connection {
  send(message: Message): void;
  close(): void;
  readonly closed: boolean;
}

export interface Transport {
  /** The framing the harness's link proxies split this transport's messages by. */
  framing: 'ndjson' | 'websocket';
  /** Open a connection; `onMessage` for every message it receives, `onClose` once it closed. */
  dial(host: string, port: number, onMessage: (message: Message) => void, onClose: () => void): Connection;
  /** Serve on host:port: `onMessage` for every message any connection sends, with a reply on that connection. */
  serve(
    host: string,
    port: number,
    onMessage: (message: Message, reply: (message: Message) => void) => void,
  ): Promise<{ close(): void }>;
}

/** A connection that asks and waits for the reply with the same rid (reconnects after it closed). */
export class Channel {
  #connection: Connection | undefined;
  #nextRid = 1;
  readonly #waiting = new Map<number, (reply: Message) => void>();

  constructor(
    private readonly transport: Transport,
    private readonly host: string,
    private readonly port: number,
    /** Messages that answer no request (a home's recall arrives on its own connection, not this one). */
    private readonly onOther: (message: Message) => void = () => undefined,
  ) {}

  /** Send without waiting for anything. */
  tell(message: Message): void {
    this.#connected().send(message);
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
      this.#connected().send({ ...message, rid });
    });
  }

  close(): void {
    this.#connection?.close();
  }

  #connected(): Connection {
    if (this.#connection && !this.#connection.closed) return this.#connection;
    this.#connection = this.transport.dial(
      this.host,
      this.port,
      (message) => {
        const settle = message.rid === undefined ? undefined : this.#waiting.get(message.rid);
        if (!settle) return this.onOther(message);
        this.#waiting.delete(message.rid!);
        settle(message);
      },
      () => {
        for (const settle of this.#waiting.values()) settle({ type: 'closed' });
        this.#waiting.clear();
      },
    );
    return this.#connection;
  }
}
