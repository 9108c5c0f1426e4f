/**
 * The cluster record lock (./node.ts) as a target: `node` runs one node in a node process, `inspect`
 * reports what it knows of a key, and `job` (in a holder process) takes the lock through its node
 * for each write: lock, stage the write, unlock, then commit it after the node's commit check — the
 * design's staged-then-unlocked write, a seam between the two. Its writes carry no fencing token:
 * the design adds none. `acquire` / `release` are one lock and its unlock through the holder's node
 * (the lock shape V317 takes): a repeat acquire under the node's live delegation costs no message.
 */
import { defineTarget, STAGED_WRITE_SEAM, type TargetEnv } from '../../contract.ts';
import { Channel, type Transport } from './channel.ts';
import { ndjsonTransport } from './ndjson.ts';
import { RecordLockNode, type RecordLockOptions } from './node.ts';

let node: RecordLockNode | undefined;
let client: Channel | undefined;

/** The holder's connection to its node (one per holder process). */
export function nodeClient(env: TargetEnv, transport: Transport): Channel {
  if (!client) {
    const url = new URL(env.url);
    client = new Channel(transport, url.hostname, Number(url.port));
  }
  return client;
}

/** The record lock as a target; its nodes and holders speak `over` (ndjson by default, or WebSocket). */
export function recordLockTarget(options: RecordLockOptions, description: string, over: Transport = ndjsonTransport) {
  return defineTarget({
    description,
    async node(env) {
      node = new RecordLockNode(env, options, over);
      await node.listen(env.listen!.host, env.listen!.port);
      return { framing: over.framing, restart: 'loses-state', grant: { type: 'grant' } };
    },
    inspect: (_env, key: string) => node!.report(key),
    async acquire(env) {
      const lock = await nodeClient(env, over).ask({ type: 'lock', key: env.key }, Number(env.params.timeout ?? 5000));
      return lock?.ok ? { handle: lock.handle, token: String(lock.token) } : null;
    },
    async release(env, lease) {
      await nodeClient(env, over).ask({ type: 'unlock', handle: lease.handle }, Number(env.params.timeout ?? 5000));
    },
    async job(env) {
      const steps = Number(env.params.steps ?? 3);
      const stepMs = Number(env.params.stepMs ?? 20);
      const timeoutMs = Number(env.params.timeout ?? 5000);
      const c = nodeClient(env, over);
      for (let i = 0; i < steps; i++) {
        const lock = await c.ask({ type: 'lock', key: env.key }, timeoutMs);
        if (!lock?.ok) throw new Error(`lock ${env.key} denied: ${String(lock?.why ?? 'no answer from the node')}`);
        const unlock = () => c.ask({ type: 'unlock', handle: lock.handle }, timeoutMs);
        if (options.write === 'staged') {
          await unlock();
          // The write staged under the lock, not yet committed: where a recall that lands meets it.
          await env.seam(STAGED_WRITE_SEAM);
        }
        const commit = await c.ask({ type: 'commit', handle: lock.handle }, timeoutMs);
        if (!commit?.ok) throw new Error(`write ${i} revoked before it committed: the node's delegation was recalled`);
        await env.effect('write', { value: { step: i, token: lock.token } });
        c.tell({ type: 'committed', handle: lock.handle });
        if (options.write === 'inside') await unlock();
        if (i < steps - 1) await new Promise((resolve) => setTimeout(resolve, stepMs));
      }
    },
    close() {
      client?.close();
      node?.close();
    },
  });
}
