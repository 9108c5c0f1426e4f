/**
 * ZooKeeper's four-letter words (srvr, dump, ...): a word written on a fresh client connection, the
 * server's text answer read until it closes the connection. The harness's way to ask a server its
 * version and readiness, and which sessions are alive, without opening a session of its own.
 */
import { connect } from 'node:net';

/** Send `word` to the server on 127.0.0.1:`port`; its whole answer (throws when nobody answers within `timeoutMs`). */
export function fourLetterWord(port: number, word: string, timeoutMs = 2000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`ZooKeeper on 127.0.0.1:${port} did not answer "${word}" within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('connect', () => socket.end(word));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

/** The server's version once it serves requests ("3.8.0"); throws while it is starting. */
export async function serverVersion(port: number): Promise<string> {
  const answer = await fourLetterWord(port, 'srvr');
  const version = /^Zookeeper version: ([^-,\s]+)/m.exec(answer)?.[1];
  if (!version) throw new Error(`ZooKeeper on 127.0.0.1:${port} is not serving yet: ${answer.trim().slice(0, 120)}`);
  return version;
}

/** The session ids (hex, "0x…") the server tracks as alive (the `dump` word's SessionTracker part). */
export async function liveSessions(port: number): Promise<Set<string>> {
  const answer = await fourLetterWord(port, 'dump');
  const tracker = answer.split('ephemeral nodes dump:')[0] ?? '';
  return new Set([...tracker.matchAll(/^\t(0x[0-9a-f]+)$/gm)].map((match) => match[1]!));
}

/** A connected session as the `cons` word lists it: its negotiated timeout and the server's last answer to it (elapsed ms). */
export interface ConnectedSession {
  timeoutMs: number;
  /** The server's monotonic clock (System.nanoTime, CLOCK_MONOTONIC on Linux) at its last response to the session, ms. */
  lastResponseMs: number;
}

/** Every connected session by id ("0x…"), from the `cons` word. */
export async function connectedSessions(port: number): Promise<Map<string, ConnectedSession>> {
  const answer = await fourLetterWord(port, 'cons');
  const sessions = new Map<string, ConnectedSession>();
  for (const match of answer.matchAll(/sid=(0x[0-9a-f]+),[^)]*?\bto=(\d+),[^)]*?\blresp=(\d+)/g))
    sessions.set(match[1]!, { timeoutMs: Number(match[2]), lastResponseMs: Number(match[3]) });
  return sessions;
}

/** A member's role in its ensemble by its `srvr` answer: "leader", "follower", "standalone" (throws while it serves none). */
export async function serverMode(port: number): Promise<string> {
  const answer = await fourLetterWord(port, 'srvr', 1000);
  const mode = /^Mode: (\w+)/m.exec(answer)?.[1];
  if (!mode) throw new Error(`ZooKeeper on 127.0.0.1:${port} serves no requests now: ${answer.trim().slice(0, 120)}`);
  return mode;
}
