/**
 * Where the harness lives and how a user invokes it, for usage texts and hints: `npx lock-oracles`
 * when it is installed as a package (it then lives under a node_modules folder), `npm run oracle --`
 * inside its own repository.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The harness's own root: the repository, or the installed package's folder. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const INSTALLED = REPO_ROOT.split(sep).includes('node_modules');

/** The command line prefix a user types: `npx lock-oracles` or `npm run oracle --`. */
export const COMMAND = INSTALLED ? 'npx lock-oracles' : 'npm run oracle --';

/**
 * The oracle modules under `root`/oracles, relative to that folder and sorted: `Vnnn/index.ts` for an
 * oracle with a folder of its own, `Vnnn.ts` for one in a single file. bin/lock-oracles.js repeats
 * this rule (it runs before anything is built).
 */
export function oracleFiles(root: string): string[] {
  const dir = join(root, 'oracles');
  return readdirSync(dir)
    .flatMap((name) => {
      if (/^V\d+\.ts$/.test(name)) return [name];
      return /^V\d+$/.test(name) && existsSync(join(dir, name, 'index.ts')) ? [`${name}/index.ts`] : [];
    })
    .sort();
}
