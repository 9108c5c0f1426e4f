/**
 * One `npm pack` per test run, shared by the files that check the package (a vitest global setup).
 * The pack's prepack rebuilds dist/ and builds the types (`tsc -p tsconfig.build.json`, ~15 CPU-s);
 * `tarball.test.ts` (what ships) and `package.test.ts` (the install) each packed on their own before.
 * Here it runs once, before any test file starts and only when the run includes one of those files;
 * they read the tarball's path and its file list with `inject('packed')`. The tarball's dir is
 * removed when the run ends.
 */
import { execa } from 'execa';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { makeRunDir } from '../src/process/run-dir.ts';

/** The test files that read the shared tarball. */
const PACKAGE_FILES = /\/test\/(package|tarball)\.test\.ts$/;

export interface Packed {
  /** The tarball's absolute path. */
  tarball: string;
  /** Every path the tarball holds, relative to the package root (`npm pack --json`'s `files`). */
  files: string[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    packed: Packed | null;
  }
}

export default async function packOnce(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  project.provide('packed', null);
  if (!project.vitest.state.getPaths().some((file) => PACKAGE_FILES.test(file))) return undefined;
  const scratch = makeRunDir('package-tarball');
  const packed = await execa('npm', ['pack', '--json', '--pack-destination', scratch.dir], {
    cwd: resolve(import.meta.dirname, '..'),
    env: { npm_config_loglevel: 'error' },
  });
  const [{ filename, files }] = JSON.parse(packed.stdout) as [{ filename: string; files: Array<{ path: string }> }];
  project.provide('packed', { tarball: join(scratch.dir, filename), files: files.map((file) => file.path) });
  return scratch.remove;
}

/** What a test file reads: the shared tarball, or an error that says how it went missing. */
export function packedFrom(packed: Packed | null): Packed {
  if (packed === null)
    throw new Error(
      'no tarball was packed for this run: test/package-tarball.ts packs one when the run includes test/package.test.ts or test/tarball.test.ts (is it in vitest.config.ts globalSetup?)',
    );
  return packed;
}
