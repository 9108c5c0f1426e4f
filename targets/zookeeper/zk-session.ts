/**
 * A holder's ZooKeeper session as applications keep one (npm node-zookeeper-client 1.1.3): one
 * client per process, its session timeout the lease (env.ttlMs), and a fresh session opened when
 * the server says the old one expired (what kazoo does by itself, and what apps on this client
 * write, since an expired client is dead). Promise forms of the calls the references make.
 * Not a reference by itself: the lock recipes (zk-lock.ts, zk-election.ts) are built on it.
 */
import { createClient, Exception, type Client, type Stat } from 'node-zookeeper-client';
import type { TargetEnv } from '../contract.ts';

/** "127.0.0.1:PORT" from the store's zookeeper://127.0.0.1:PORT URL. */
export function connectString(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port}`;
}

/** A session id or zxid (8 bytes) as a hex string ("0x100…"). */
export const hexId = (bytes: Buffer): string => `0x${bytes.readBigUInt64BE(0).toString(16)}`;

/** A zxid as a number: a fencing token that grows with every write to the ensemble. */
export const zxidNumber = (bytes: Buffer): number => Number(bytes.readBigUInt64BE(0));

const isCode = (error: unknown, code: number): boolean => (error as { getCode?: () => number })?.getCode?.() === code;
export const noNode = (error: unknown): boolean => isCode(error, Exception.NO_NODE);
export const nodeExists = (error: unknown): boolean => isCode(error, Exception.NODE_EXISTS);
/** The call may not have reached the server: its connection dropped, or its session had ended. */
export const lostConnection = (error: unknown): boolean =>
  isCode(error, Exception.CONNECTION_LOSS) || isCode(error, Exception.SESSION_EXPIRED);

export class ZkSession {
  #client!: Client;
  #ready!: Promise<void>;

  constructor(
    private readonly env: TargetEnv,
    private readonly timeoutMs = env.ttlMs,
  ) {
    this.#open();
  }

  #open(): void {
    const client = createClient(connectString(this.env.url), {
      sessionTimeout: this.timeoutMs,
      spinDelay: 20,
      retries: 0,
    });
    this.#client = client;
    this.#ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ZooKeeper session at ${this.env.url} within 10 s`)), 10_000);
      client.once('connected', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    void this.#ready.catch(() => undefined);
    client.once('expired', () => {
      this.env.log(`session ${hexId(client.getSessionId())} expired; opening a new one`);
      client.close();
      this.#open();
    });
    client.connect();
  }

  /** Wait for the session (the first, or the one opened after an expiry). */
  async ready(): Promise<Client> {
    await this.#ready;
    return this.#client;
  }

  /** This session's id ("0x…"), as an ephemeral node's owner shows it. */
  async id(): Promise<string> {
    return hexId((await this.ready()).getSessionId());
  }

  /**
   * A read, a delete or a mkdirp, tried again for up to 5 s when the connection was lost or the session had
   * ended before it was answered, as Curator's RetryLoop does: on the session the client holds by
   * then (a new one once the old one's expiry was heard). A create is never retried (it may have
   * been made before the answer was lost).
   */
  async #retried<T>(call: (client: Client) => Promise<T>): Promise<T> {
    const deadline = performance.now() + 5000;
    for (;;) {
      try {
        return await call(await this.ready());
      } catch (error) {
        if (performance.now() > deadline || !lostConnection(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  async create(path: string, data: string, mode: number): Promise<string> {
    const client = await this.ready();
    return new Promise((resolve, reject) =>
      client.create(path, Buffer.from(data), mode, (error, made) => (error ? reject(error) : resolve(made))),
    );
  }

  /** Make the persistent node and its parents; tried again on a lost connection like a read (it is idempotent), as Curator's ensurePath is. */
  async mkdirp(path: string): Promise<void> {
    await this.#retried(
      (client) =>
        new Promise<void>((resolve, reject) => client.mkdirp(path, (error) => (error ? reject(error) : resolve()))),
    );
  }

  /** The node's data and stat, or null when it is not there. */
  get(path: string): Promise<{ data: string; stat: Stat } | null> {
    return this.#retried(
      (client) =>
        new Promise((resolve, reject) =>
          client.getData(path, (error, data, stat) =>
            error ? (noNode(error) ? resolve(null) : reject(error)) : resolve({ data: data?.toString() ?? '', stat }),
          ),
        ),
    );
  }

  /** The node's children, sorted by name (a sequence suffix sorts them by age), and a watch that fires once when they change. */
  children(path: string, changed?: () => void): Promise<string[]> {
    return this.#retried(
      (client) =>
        new Promise((resolve, reject) => {
          const done = (error: Error | Exception | null, children: string[]) =>
            error ? reject(error) : resolve([...children].sort());
          if (changed) client.getChildren(path, () => changed(), done);
          else client.getChildren(path, done);
        }),
    );
  }

  /**
   * Delete the node (at `version`, −1 for any); false when it was not there. `sameSession`: only on
   * the session the client has now, never retried on a new one (an ephemeral node of this session
   * is gone once the session is, and a version check cannot tell another session's node made anew).
   * `retry` false: a lost answer throws (the delete may have run) instead of sending it again.
   */
  async remove(path: string, version = -1, sameSession = false, retry = true): Promise<boolean> {
    const session = sameSession ? await this.ready() : undefined;
    const once = retry
      ? this.#retried.bind(this)
      : async <T>(call: (client: Client) => Promise<T>) => call(await this.ready());
    return once((client) => {
      if (session && client !== session) return Promise.resolve(false);
      return new Promise<boolean>((resolve, reject) =>
        client.remove(path, version, (error) =>
          error ? (noNode(error) ? resolve(false) : reject(error)) : resolve(true),
        ),
      );
    });
  }

  close(): void {
    this.#client.close();
  }
}

/** One session per holder process (each holder imports the target once). */
let session: ZkSession | undefined;
export function sessionOf(env: TargetEnv): ZkSession {
  session ??= new ZkSession(env);
  return session;
}
