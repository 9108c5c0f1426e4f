// GOOD for V315 (ORACLES.md row V315): npm etcd3's Election with every write fenced by its campaign key's create revision (a later leader's key is created later), checked at the resource: a deposed leader's writes are rejected.
import { defineTarget } from '../contract.ts';
import { etcd3Slot } from './client.ts';
import { electionLoop, electionPrefix } from './election-loop.ts';

const etcd = etcd3Slot();

export default defineTarget({
  description: "etcd3 Election: every write fenced by its campaign key's create revision",
  storeKey: electionPrefix,
  connect: (env) => etcd.connect(env),
  async leader(env) {
    let fence: number | undefined;
    await electionLoop(env, etcd.get(), async (campaign, i) => {
      if (fence === undefined) {
        const key = await campaign.getCampaignKey();
        fence = Number((await etcd.get().get(key).exec()).kvs[0]?.create_revision);
      }
      await env.effect('write', { fence, value: i });
    });
  },
  close: () => etcd.close(),
});
