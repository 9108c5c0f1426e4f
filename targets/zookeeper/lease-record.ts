/**
 * A lease record kept in a persistent ZooKeeper node, as apps that want "a lock with an expiry"
 * write one on node-zookeeper-client: `/lease-records/<key>` holds `{ owner, expiresAt }` with
 * expiresAt = the writer's Date.now() + TTL, and a contender takes a lapsed record over with a
 * setData at the version it read. Where the lapse is judged is the guard (V317): `'holder-clock'`
 * compares expiresAt with the contender's own Date.now(), an expiry written on one holder's clock
 * and compared on another's; `'server-clock'` compares the node's mtime (stamped by the server's
 * clock when it was written) + TTL with the server's clock now, read as the mtime of the
 * contender's own probe node written just before: one clock, the server's. Not a reference by
 * itself: lease-record-*.ts bind it.
 */
import { randomUUID } from 'node:crypto';
import { CreateMode, Exception, type Stat } from 'node-zookeeper-client';
import type { Target, TargetEnv } from '../contract.ts';
import { nodeExists, noNode, sessionOf } from './zk-session.ts';

export type LapseOn = 'holder-clock' | 'server-clock';

const RECORDS = '/lease-records';
/** Each holder's probe node, outside the records: its mtime is the server's clock when written. */
const PROBES = '/lease-records-clock';

const recordNode = (env: TargetEnv): string => `${RECORDS}/${env.key}`;
const msOf = (long: Buffer): number => Number(long.readBigInt64BE(0));
const isBadVersion = (error: unknown): boolean =>
  (error as { getCode?: () => number })?.getCode?.() === Exception.BAD_VERSION;

/** The record written at `version` (-1: made anew), or null when another write came first. */
async function write(env: TargetEnv, version: number | null): Promise<{ token: string; version: number } | null> {
  const zk = sessionOf(env);
  const token = randomUUID();
  const record = JSON.stringify({ owner: token, expiresAt: Date.now() + env.ttlMs });
  if (version === null) {
    try {
      await zk.create(recordNode(env), record, CreateMode.PERSISTENT);
      return { token, version: 0 };
    } catch (error) {
      if (nodeExists(error)) return null;
      throw error;
    }
  }
  const client = await zk.ready();
  return new Promise((resolve, reject) =>
    client.setData(recordNode(env), Buffer.from(record), version, (error, stat) =>
      error
        ? isBadVersion(error) || noNode(error)
          ? resolve(null)
          : reject(error)
        : resolve({ token, version: stat.version }),
    ),
  );
}

/** The server's clock now: the mtime it stamps on a write of this holder's probe node. */
async function serverNow(env: TargetEnv): Promise<number> {
  const client = await sessionOf(env).ready();
  const stat = await new Promise<Stat>((resolve, reject) =>
    client.setData(`${PROBES}/${env.holder}`, Buffer.alloc(0), (error, stat) =>
      error ? reject(error) : resolve(stat),
    ),
  );
  return msOf(stat.mtime);
}

export function zkLeaseRecordTarget(lapseOn: LapseOn, description: string): Target {
  return {
    description,
    storeKey: recordNode,
    async connect(env) {
      const zk = sessionOf(env);
      await zk.mkdirp(RECORDS);
      await zk.mkdirp(`${PROBES}/${env.holder}`);
    },
    async acquire(env) {
      const seen = await sessionOf(env).get(recordNode(env));
      if (!seen) return write(env, null);
      const lapsed =
        lapseOn === 'holder-clock'
          ? (JSON.parse(seen.data) as { expiresAt: number }).expiresAt < Date.now()
          : msOf(seen.stat.mtime) + env.ttlMs < (await serverNow(env));
      return lapsed ? write(env, seen.stat.version) : null;
    },
    async release(env, lease) {
      try {
        return await sessionOf(env).remove(recordNode(env), Number(lease.version));
      } catch (error) {
        if (isBadVersion(error)) return false;
        throw error;
      }
    },
  };
}
