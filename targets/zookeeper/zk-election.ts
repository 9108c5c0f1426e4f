/**
 * ZooKeeper's leader election recipe as users write it on node-zookeeper-client (after ZooKeeper's
 * "Recipes and Solutions" page): each replica creates `<election>/n-` EPHEMERAL_SEQUENTIAL, and the
 * replica whose node has the lowest sequence number leads; a replica whose session ended makes a
 * new node on its new session. `watchLeadership` is how a cached flag is kept (a children watch,
 * set again each time it fires); `leadsNow` asks the server before each act. Not a reference by
 * itself: election-*.ts bind it.
 */
import { CreateMode } from 'node-zookeeper-client';
import type { TargetEnv } from '../contract.ts';
import { sessionOf } from './zk-session.ts';

/** The election node for the oracle's key: what storeKey returns. */
export const electionNode = (env: TargetEnv): string => `/elections/${env.key}`;

/** This replica's node (being made, or made) and the session it is made on: one per session. */
let joined: { node: Promise<string>; session: string } | undefined;

/** This replica's candidate node, made (again) when the session it was made on has ended. */
async function candidate(env: TargetEnv): Promise<string> {
  const zk = sessionOf(env);
  const session = await zk.id();
  if (joined?.session !== session) {
    const made = zk
      .mkdirp(electionNode(env))
      .then(() => zk.create(`${electionNode(env)}/n-`, env.holder, CreateMode.EPHEMERAL_SEQUENTIAL));
    joined = { node: made, session };
    made.catch(() => {
      if (joined?.node === made) joined = undefined;
    });
  }
  return joined.node;
}

/** Whether this replica's node is the lowest now (asked of the server). */
export async function leadsNow(env: TargetEnv): Promise<boolean> {
  const node = await candidate(env);
  const children = await sessionOf(env).children(electionNode(env));
  return `${electionNode(env)}/${children[0]}` === node;
}

/** Keep `onChange` told whether this replica leads: at once, then each time the election's children change. */
export function watchLeadership(env: TargetEnv, onChange: (leads: boolean) => void): void {
  const look = async (): Promise<void> => {
    const node = await candidate(env);
    const children = await sessionOf(env).children(electionNode(env), () => void look().catch(report));
    onChange(`${electionNode(env)}/${children[0]}` === node);
  };
  const report = (error: Error) => env.log(`election watch failed: ${error.message}`);
  void look().catch(report);
}
