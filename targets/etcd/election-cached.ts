// BAD for V315 (ORACLES.md row V315): npm etcd3's Election, the leader acting on its cached "elected" flag: cut off from etcd, its lease lapses and another is elected while it goes on writing.
import { defineTarget } from '../contract.ts';
import { etcd3Slot } from './client.ts';
import { electionLoop, electionPrefix } from './election-loop.ts';

const etcd = etcd3Slot();

export default defineTarget({
  description: 'etcd3 Election: acts on its cached elected flag, no fence',
  storeKey: electionPrefix,
  connect: (env) => etcd.connect(env),
  leader: (env) =>
    electionLoop(env, etcd.get(), async (_campaign, i) => {
      await env.effect('write', { value: i });
    }),
  close: () => etcd.close(),
});
