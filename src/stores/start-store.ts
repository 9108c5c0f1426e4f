/**
 * Which runtime starts a store: `local` (default: a server process on this machine), `container`
 * (testcontainers, see container-runtime.ts) or `auto` (container when a Docker engine answers on
 * its socket and the store's recipe can run in a container, else local).
 */
import { request as httpRequest } from 'node:http';
import { recipeFor } from '../../docker/index.ts';
import { startLocalStore } from './local-runtime.ts';
import type { StartedStore, StoreKind, StoreRequest } from './types.ts';

export const RUNTIME_CHOICES = ['local', 'container', 'auto'] as const;
export type RuntimeChoice = (typeof RUNTIME_CHOICES)[number];

export async function startStore(request: StoreRequest, choice: RuntimeChoice = 'local'): Promise<StartedStore> {
  if ((await chooseRuntime(choice, request.kind)) === 'local') return startLocalStore(request);
  // Loaded on demand: testcontainers takes about a second to import, which local runs never pay.
  const { startContainerStore } = await import('./container-runtime.ts');
  return startContainerStore(request);
}

/** `auto` looks only at a unix socket: DOCKER_HOST=unix://…, else /var/run/docker.sock. */
export async function chooseRuntime(choice: RuntimeChoice, kind: StoreKind, socketPath = dockerSocketPath()): Promise<'local' | 'container'> {
  if (choice !== 'auto') return choice;
  if (!recipeFor(kind).container || socketPath === undefined) return 'local';
  return (await engineAnswers(socketPath)) ? 'container' : 'local';
}

export function dockerSocketPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const host = env.DOCKER_HOST;
  if (!host) return '/var/run/docker.sock';
  return host.startsWith('unix://') ? host.slice('unix://'.length) : undefined;
}

/** True when a Docker engine answers GET /_ping on `socketPath` within `timeoutMs`. */
export function engineAnswers(socketPath: string, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpRequest({ socketPath, path: '/_ping', timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}
