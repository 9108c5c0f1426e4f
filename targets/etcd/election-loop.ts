/**
 * The leader shape on npm etcd3's Election: campaign (a lease of the run's TTL, kept alive by the
 * client; a key `election/<name>/<lease id>`; elected once every older key is gone), then act every
 * step while the loop believes it leads. The `elected` event sets a flag the loop acts on; the
 * Campaign's `error` (its lease lost, up to 2 × TTL late) is only logged, as the event is easy to
 * miss (etcd3 issues #158, #176). Each reference says what it does before acting.
 */
import type { Campaign, Etcd3 } from 'etcd3';
import type { TargetEnv } from '../contract.ts';
import { sleep, stepMs } from '../redis/job-params.ts';
import { ttlSeconds } from './client.ts';

/** Where the election's keys live: etcd3's own prefix, `election/<name>/`. */
export const electionPrefix = (env: TargetEnv): string => `election/${env.key}/`;

/** Run the loop until env.signal aborts; `act(campaign, i)` runs each step while elected. */
export async function electionLoop(
  env: TargetEnv,
  client: Etcd3,
  act: (campaign: Campaign, i: number) => Promise<void>,
): Promise<void> {
  const campaign = client.election(env.key, ttlSeconds(env)).campaign(env.holder);
  let elected = false;
  campaign.on('elected', () => (elected = true));
  campaign.on('error', (error: Error) => env.log(`etcd3 campaign: ${error.message}`));
  try {
    for (let i = 0; !env.signal.aborted; i++) {
      if (elected) await act(campaign, i);
      await sleep(stepMs(env));
    }
  } finally {
    await campaign.resign().catch((error: Error) => env.log(`resign failed: ${error.message}`));
  }
}
