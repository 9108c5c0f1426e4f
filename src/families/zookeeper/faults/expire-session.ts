/**
 * A holder's session expired on the server while the holder runs on: a second handle attaches to
 * the session with its id and password (ZooKeeper lets any client that has both resume a session),
 * then closes it, so the server ends the session and deletes its ephemeral nodes at once — what
 * Curator's KillSession test utility does, and what a session expiry after a network partition
 * looks like to the holder: its next request learns the session is gone, its cached state does not.
 * The landing: `expireHolderSession` — A's wire proxy blackholed for the moment of the attach (a
 * client whose connection is taken over re-attaches at once, and the server then drops the second
 * handle before its closeSession: measured, 2 of 3 tries without it), `expireSession` over a raw
 * socket (ZooKeeper's ConnectRequest, then closeSession: neither npm client lets a caller name the
 * session to attach to), the blackhole lifted once the server answered. The holder's session id
 * and password are those its wire proxy read in the server's ConnectResponse on the holder's own
 * connection (src/wire/store-grants.ts): no help from its client. Not applicable: on a topology (one server only), and
 * where the store is not ZooKeeper (the family's own fault, StoreFamily.faults). It lands itself
 * (`land`, at the moment the oracle names: --fault expire-session).
 */
import { connect } from 'node:net';
import type { WireProxy } from '../../../wire/proxy.ts';
import type { LandableFault } from '../../fault-landing.ts';
import { holderSession } from './holder-session.ts';

export const EXPIRE_SESSION: LandableFault = {
  name: 'expire-session',
  rank: 95,
  words: 'its session expired on the server',
  doc: "A's ZooKeeper session is ended on the server (a second handle attached with its id and password, then closed): its ephemeral nodes are deleted at once while A runs on, as after a partition longer than its session timeout",
  at: ['command', 'seam', 'effect'],
  topologies: ['single'],
  stores: ['zookeeper'],
  inWords: (_, at) =>
    `A's session was expired on the server at ${at} (a second handle attached with its id and password and closed it), A still running`,
  async land(ctx) {
    const found = holderSession('expire-session', 'ends a ZooKeeper session', ctx);
    if ('reached' in found) return found;
    const { wire, session } = found;
    const { holder, store, faults } = ctx;
    const id = `0x${session.id.toString(16)}`;
    const said = await expireHolderSession(wire, store.port);
    faults.lift(faults.apply('store', holder.id, `expire session ${id}`, { session: id, said }));
    return {
      reached: true,
      took: true,
      words: `A's ZooKeeper session ${id} was ended on the server (${said}), its ephemeral nodes deleted, while A ran on`,
      facts: { action: `expire session ${id}`, session: id },
      lift: () => undefined,
    };
  },
};

/** A session as its ConnectResponse names it. */
export interface SessionCredentials {
  id: bigint;
  password: Buffer;
}

const packet = (body: Buffer): Buffer => {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length);
  return Buffer.concat([length, body]);
};

/** A ConnectRequest resuming `session` (protocol 0, no zxid seen, timeout as granted, read-write). */
function resumeRequest(session: SessionCredentials, timeoutMs: number): Buffer {
  const body = Buffer.alloc(4 + 8 + 4 + 8 + 4 + session.password.length + 1);
  let at = body.writeInt32BE(0, 0);
  at = body.writeBigInt64BE(0n, at);
  at = body.writeInt32BE(timeoutMs, at);
  at = body.writeBigInt64BE(session.id, at);
  at = body.writeInt32BE(session.password.length, at);
  at += session.password.copy(body, at);
  body.writeUInt8(0, at);
  return packet(body);
}

/** closeSession: xid 1, type −11, no body. */
const closeSession = (): Buffer => {
  const body = Buffer.alloc(8);
  body.writeInt32BE(1, 0);
  body.writeInt32BE(-11, 4);
  return packet(body);
};

/**
 * End `session` on the ZooKeeper server at 127.0.0.1:`port`: attach, then close. Resolves with what
 * the server answered, for the fault log; rejects when the server refused the attach (the session
 * had already ended: its ConnectResponse grants a timeout of 0) or did not answer in `withinMs`.
 */
export function expireSession(port: number, session: SessionCredentials, withinMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = Buffer.alloc(0);
    let attached = false;
    const fail = (why: string) => {
      clearTimeout(timer);
      socket.destroy();
      reject(new Error(`expire-session 0x${session.id.toString(16)}: ${why}`));
    };
    const timer = setTimeout(() => fail(`no answer from 127.0.0.1:${port} within ${withinMs} ms`), withinMs);
    socket.on('connect', () => socket.write(resumeRequest(session, 30_000)));
    socket.on('error', (error) => fail(error.message));
    let closed = false;
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      while (received.length >= 4 && received.length >= 4 + received.readInt32BE(0)) {
        const reply = received.subarray(0, 4 + received.readInt32BE(0));
        received = received.subarray(reply.length);
        if (!attached) {
          if (reply.readInt32BE(8) <= 0) return fail('the server refused the attach: the session had already ended');
          attached = true;
          socket.write(closeSession());
        } else if (reply.readInt32BE(4) === 1) {
          // closeSession's reply (xid 1): the server ended the session and deleted its ephemeral nodes.
          const err = reply.readInt32BE(16);
          if (err !== 0) return fail(`the server refused closeSession (error ${err})`);
          closed = true;
        }
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      if (closed) resolve(`attached to session 0x${session.id.toString(16)} with its password and closed it`);
      else
        fail(
          attached
            ? 'the connection closed before closeSession was answered (the holder re-attached to its session first?)'
            : 'the server closed the connection before the attach was answered',
        );
    });
  });
}

/**
 * Expire the session of the holder behind `proxy`, the one the server granted it last (read at the
 * proxy): its traffic blackholed so its client cannot re-attach first, the session ended with
 * `expireSession`, then its traffic let through again (its client then learns its session is gone).
 * Rejects, saying so, when the holder has no session yet.
 */
export async function expireHolderSession(proxy: WireProxy, port: number, withinMs = 5000): Promise<string> {
  const session = proxy.latestSession();
  if (!session)
    throw new Error(
      `expire-session: holder ${proxy.holder} has no ZooKeeper session yet (no ConnectResponse reached its wire proxy): land it after the holder connected`,
    );
  const cut = proxy.blackhole();
  try {
    return await expireSession(port, session, withinMs);
  } finally {
    cut.lift();
  }
}
