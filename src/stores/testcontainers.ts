/**
 * testcontainers, for the container runtime (`--runtime container`) only: it is the repository's
 * dev dependency, not the installed tool's (its ~120 packages and ~50 MB would be two thirds of an
 * install that runs stores locally; docs/dependencies.md). Loaded when a container is first
 * needed; where it is not installed, the store is unavailable with the `npm i -D` line that fixes it.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as Testcontainers from 'testcontainers';
import { REPO_ROOT } from '../core/invocation.ts';
import { StoreUnavailableError } from '../core/errors.ts';

function load(): typeof Testcontainers {
  try {
    return createRequire(import.meta.url)('testcontainers') as typeof Testcontainers;
  } catch (error) {
    const missing =
      (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' && /'testcontainers'/.test(String(error));
    if (!missing) throw error;
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      devDependencies?: Record<string, string>;
    };
    const version = manifest.devDependencies?.testcontainers;
    throw new StoreUnavailableError(
      'the container runtime needs the testcontainers package, which an install of lock-oracles does not carry.',
      `npm i -D testcontainers${version ? `@${version}` : ''}, or use --runtime local`,
    );
  }
}

export const { AbstractStartedContainer, GenericContainer, getContainerRuntimeClient, ImageName, Wait } = load();
