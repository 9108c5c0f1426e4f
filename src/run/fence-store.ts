/**
 * The fence store: a second scratch store a target declares (Target.fenceStore) for fencing tokens
 * that must not fail over with the lock — a Postgres sequence beside a replicated Redis, so a
 * failover that loses the lock cannot hand the same token out again. Started like every store (a
 * loopback port, an owner-marked run dir a killed run's reaper removes), stopped with the run; its
 * URL reaches every holder as `env.fenceUrl`, and the evidence names it (`store.fence`).
 */
import { assertLoopbackUrl } from '../stores/loopback.ts';
import { startStore, type RuntimeChoice } from '../families/start-store.ts';
import type { StartedStore } from '../stores/types.ts';

export function startFenceStore(kind: 'postgres', runtime: RuntimeChoice | undefined): Promise<StartedStore> {
  return startStore({ kind }, runtime).then((store) => {
    assertLoopbackUrl(store.url);
    return store;
  });
}
