/**
 * `--topology etcd:N|zookeeper:N --runtime container`: a coordination service's members each in
 * its own container (container-member.ts), started by the family's own cluster code (its recipe's
 * container.members, the same code that starts them as local processes), so the harness's reads,
 * the per-member timeline lanes and the member faults work the same on either runtime.
 */
import { localEngine } from './container-engine.ts';
import { launchContainerMember } from './container-member.ts';
import { freePort } from './free-port.ts';
import type { RecipeBook, StartedStore, StoreRequest } from './types.ts';

export async function startContainerMembers(
  request: StoreRequest & { topology: { members: number } },
  recipeFor: RecipeBook,
): Promise<StartedStore> {
  const { kind } = request;
  const startMembers = recipeFor(kind).container?.members;
  // Only etcd and ZooKeeper have member topologies (parseTopology), and both recipes declare it.
  if (!startMembers) throw new Error(`${kind}'s container recipe has no members: a member topology must declare them`);
  const began = performance.now();
  await localEngine(); // refused before any port is taken when the engine is off loopback
  const started = await startMembers(
    { port: await freePort(), freePort, launch: launchContainerMember },
    request.topology.members,
  );
  return { ...started, runtime: 'container', startMs: performance.now() - began };
}
