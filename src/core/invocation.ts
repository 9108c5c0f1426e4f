/**
 * Where the harness lives and how a user invokes it, for usage texts and hints: `npx lock-oracles`
 * when it is installed as a package (it then lives under a node_modules folder), `npm run oracle --`
 * inside its own repository.
 */
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The harness's own root: the repository, or the installed package's folder. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const INSTALLED = REPO_ROOT.split(sep).includes('node_modules');

/** The command line prefix a user types: `npx lock-oracles` or `npm run oracle --`. */
export const COMMAND = INSTALLED ? 'npx lock-oracles' : 'npm run oracle --';
