/**
 * Which runtime starts a store: `local` (default: a server process on this machine), `container`
 * (testcontainers, see container-runtime.ts) or `auto`: local when this machine has the store's
 * binaries, else the container runtime when a Docker engine answers on its socket, else a usage
 * error naming both fixes.
 */
import { recipeFor } from './recipes.ts';
import { dockerSocketPath, engineAnswers } from '../stores/engine-socket.ts';
import { startLocalStore } from '../stores/local-runtime.ts';
import { speaksRedis, type StartedStore, type StoreKind, type StoreRequest } from '../stores/types.ts';
import { StoreUnavailableError, UsageError } from '../core/errors.ts';
import type { RuntimeChoice } from '../stores/runtime-choice.ts';
import { isMemberTopology } from '../stores/topology.ts';

export { RUNTIME_CHOICES, type RuntimeChoice } from '../stores/runtime-choice.ts';

export async function startStore(request: StoreRequest, choice: RuntimeChoice = 'local'): Promise<StartedStore> {
  // A coordination service's members (etcd:N, zookeeper:N) are started by its own recipe, in one run dir.
  if (request.topology && request.topology.kind !== 'single' && !isMemberTopology(request.topology))
    return startTopology(request, choice);
  const runtime = await chooseRuntime(choice, request.kind);
  if (runtime === 'local') return startLocalStore(request, recipeFor);
  if (isMemberTopology(request.topology)) {
    const { startContainerMembers } = await import('../stores/container-members.ts');
    return startContainerMembers({ ...request, topology: request.topology }, recipeFor);
  }
  // Loaded on demand: testcontainers takes about a second to import, which local runs never pay.
  const { startContainerStore } = await import('../stores/container-runtime.ts');
  return startContainerStore(request, recipeFor);
}

/** `auto` asks the store's recipe whether it runs here, then looks only at a unix socket: DOCKER_HOST=unix://…, else /var/run/docker.sock. */
export async function chooseRuntime(
  choice: RuntimeChoice,
  kind: StoreKind,
  socketPath = dockerSocketPath(),
): Promise<'local' | 'container'> {
  if (choice !== 'auto') return choice;
  const recipe = recipeFor(kind);
  const missing = await recipe.missing();
  if (!missing) return 'local';
  if (recipe.container && socketPath !== undefined && (await engineAnswers(socketPath))) return 'container';
  const engine =
    socketPath === undefined
      ? `DOCKER_HOST (${process.env.DOCKER_HOST}) is not a unix socket`
      : `no Docker engine answers on ${socketPath}`;
  throw new StoreUnavailableError(
    `--runtime auto cannot start ${kind}: not locally (${missing.message.split('\n')[0]}) and not in a container (${recipe.container ? engine : 'its recipe has no container facts'}).`,
    `npm run setup (installs it on this machine), or bash scripts/container-engine.sh (a local Docker engine and its image)`,
  );
}

/** Several nodes of a Redis/Valkey store (--topology): local processes, or containers on the host network. */
async function startTopology(request: StoreRequest, choice: RuntimeChoice): Promise<StartedStore> {
  if (!speaksRedis(request.kind))
    throw new UsageError(
      `--topology ${request.topology!.kind} starts Redis or Valkey nodes, not ${request.kind}: run it with --store redis or valkey`,
    );
  const runtime = await chooseRuntime(choice, request.kind);
  if (runtime === 'local') {
    const missing = await recipeFor(request.kind).missing();
    if (missing) throw missing;
  }
  const { startRedisTopology } = await import('./redis/topology/start-topology.ts');
  return startRedisTopology(request, request.topology!, runtime === 'local' ? 'local-process' : 'container');
}
