/**
 * A ZooKeeper server served again after a run (src/families/store-reuse.ts), in place (a chroot per
 * run is not transparent to a target that builds its own connect string). First every session of
 * the run must be gone: one a holder closed is at once, but a SIGKILLed holder's session (and its
 * ephemeral nodes, its watches) lives on until its timeout, so the reset waits for it when the
 * server says it expires soon (`dump`: its session sets by expiry), and otherwise gives up: the
 * server is stopped, not handed on with a session of the run alive. Then every znode but
 * /zookeeper is deleted, deepest first, and verified: no session but the reset's own, no node but
 * /zookeeper's, and /zookeeper's subtree (quotas, config) and the root's ACL as at start.
 */
import type { Client, Exception } from 'node-zookeeper-client';
import type { StartedStore } from '../../stores/types.ts';
import type { StoreReuse } from '../store-reuse.ts';
import { connectedSessions, fourLetterWord } from './four-letter.ts';
import { hexId, zookeeper } from './zk-reads.ts';

/** The longest the reset waits for the run's sessions to expire (beyond it, a new server costs less). */
const SESSIONS_WAIT_MS = 2000;
/** ZooKeeper's own subtree, kept. */
const ZOOKEEPER = '/zookeeper';

export const zookeeperReuse: StoreReuse = {
  kinds: ['zookeeper'],
  // idle ~2 CPU ms a second against ~500 CPU ms and 1-2.5 s a JVM start.
  keepIdleMs: 60_000,
  verifies: 'no session or znode of the run left, /zookeeper and the root ACL as it started',
  baseline: (store) => withSession(store, (session) => settingsOf(session)),
  reset: (store, baseline) =>
    withSession(store, async (session) => {
      const own = hexId(session.client.getSessionId());
      const alive = await othersGone(store.port, own);
      if (alive) return alive;
      const nodes = (await subtree(session, '/')).filter(
        (path) => path !== '/' && path !== ZOOKEEPER && !path.startsWith(`${ZOOKEEPER}/`),
      );
      for (const path of nodes.reverse()) await session.call((done) => session.client.remove(path, -1, done));
      const left = await session.call<string[]>((done) => session.client.getChildren('/', done));
      if (left.some((name) => `/${name}` !== ZOOKEEPER))
        return `znodes left after deleting every one: ${left.join(', ')}`;
      const stillAlive = await othersGone(store.port, own);
      if (stillAlive) return stillAlive;
      return (await settingsOf(session)) === baseline
        ? undefined
        : `${ZOOKEEPER}'s subtree or the root's ACL changed during the run`;
    }),
};

/** Undefined once no session but `own` is alive; else why the reset gives up (a session still connected, or expiring later than it waits). */
async function othersGone(port: number, own: string): Promise<string | undefined> {
  const until = performance.now() + SESSIONS_WAIT_MS;
  for (;;) {
    const others = sessionExpiries(await fourLetterWord(port, 'dump')).filter(({ id }) => id !== own);
    if (!others.length) return undefined;
    const connected = [...(await connectedSessions(port)).keys()].filter((id) => id !== own);
    if (connected.length)
      return `${connected.length} session(s) of the run still connected after its holders ended (${connected.join(', ')})`;
    const latest = Math.max(...others.map(({ expiresAt }) => expiresAt));
    // `dump` tells expiry to the second: a session past its time is being closed now.
    if (latest - Date.now() > SESSIONS_WAIT_MS + 1000 || performance.now() > until)
      return `${others.length} session(s) of the run still alive (${others.map(({ id }) => id).join(', ')}), expiring at ${new Date(latest).toISOString()}`;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every live session and when it expires, from `dump`'s SessionTracker part ("N expire at <date>:" then "\t0x…" lines). */
function sessionExpiries(dump: string): Array<{ id: string; expiresAt: number }> {
  const tracker = dump.split('ephemeral nodes dump:')[0] ?? '';
  const sessions: Array<{ id: string; expiresAt: number }> = [];
  let expiresAt = Number.POSITIVE_INFINITY;
  for (const line of tracker.split('\n')) {
    const set = /^\d+ expire at (.+):$/.exec(line);
    if (set) expiresAt = Date.parse(set[1]!) || Number.POSITIVE_INFINITY;
    const id = /^\t(0x[0-9a-f]+)$/.exec(line)?.[1];
    if (id) sessions.push({ id, expiresAt });
  }
  return sessions;
}

/** /zookeeper's subtree with each node's data, and the root's ACL. */
async function settingsOf(session: Session): Promise<string> {
  const tree = await subtree(session, ZOOKEEPER);
  const data: Record<string, string> = {};
  for (const path of tree.sort())
    data[path] = String(await session.call<Buffer | undefined>((done) => session.client.getData(path, done)));
  const acl = await session.call<unknown>((done) => session.client.getACL('/', done));
  return JSON.stringify({ data, acl });
}

/** `path` and every node below it, parents before their children. */
async function subtree(session: Session, path: string): Promise<string[]> {
  const nodes = [path];
  for (let i = 0; i < nodes.length; i++) {
    const children = await session.call<string[]>((done) => session.client.getChildren(nodes[i]!, done));
    nodes.push(...children.map((child) => `${nodes[i] === '/' ? '' : nodes[i]}/${child}`));
  }
  return nodes;
}

/** One session of the reset's own, with node-zookeeper-client's callbacks as promises. */
interface Session {
  client: Client;
  call<T = void>(start: (done: (error: Error | Exception | null, result?: T) => void) => void): Promise<T>;
}

async function withSession<T>(store: StartedStore, use: (session: Session) => Promise<T>): Promise<T> {
  const client = zookeeper().createClient(`127.0.0.1:${store.port}`, {
    sessionTimeout: 5000,
    retries: 0,
    spinDelay: 50,
  });
  const connected = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`ZooKeeper on 127.0.0.1:${store.port} did not open a session within 5 s`)),
      5000,
    );
    client.once('connected', () => (clearTimeout(timer), resolve()));
  });
  client.connect();
  const session: Session = {
    client,
    call: <R>(start: (done: (error: Error | Exception | null, result?: R) => void) => void) =>
      new Promise<R>((resolve, reject) =>
        start((error, result) =>
          error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(result as R),
        ),
      ),
  };
  try {
    await connected;
    return await use(session);
  } finally {
    await closed(client);
  }
}

/** Closes the session (a closeSession the server acts on at once) and waits for it. */
function closed(client: Client): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 1000);
    client.once('disconnected', () => (clearTimeout(timer), resolve()));
    client.close();
  });
}
