/**
 * Finds the oracles: every oracles/Vnnn/index.ts (a big oracle's folder: its definition, scenario
 * and judge side by side) or oracles/Vnnn.ts is one oracle; adding V320 is adding a folder or a file.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { COMMAND, REPO_ROOT, oracleFiles } from '../core/invocation.ts';
import type { OracleDefinition } from '../oracle/definition.ts';
import type { ParamSpecs } from '../core/params.ts';
import { UsageError } from '../core/errors.ts';

const ORACLES_DIR = fileURLToPath(new URL('../../oracles/', import.meta.url));
export { REPO_ROOT } from '../core/invocation.ts';

/** Set only in the compiled CLI (src/build/build-dist.ts): the build dir (under dist/) holding each oracle's compiled twin. */
declare const LOCK_ORACLES_BUILD: string | undefined;

/** The build dir this CLI was compiled into (dist/<build>/), or undefined when it runs from its sources. */
export function builtDir(): string | undefined {
  return typeof LOCK_ORACLES_BUILD === 'string' ? join(REPO_ROOT, 'dist', LOCK_ORACLES_BUILD) : undefined;
}

function oracleModule(id: string): string {
  const built = builtDir();
  if (built) return join(built, 'oracles', `${id}.js`);
  const file = oracleFiles(REPO_ROOT).find((f) => f === `${id}.ts` || f === `${id}/index.ts`);
  return join(ORACLES_DIR, file ?? `${id}.ts`);
}

function oracleIds(): string[] {
  return oracleFiles(REPO_ROOT).map((f) => f.replace(/(\/index)?\.ts$/, ''));
}

/** The oracle's id as its file names it (`v310` is V310); an unknown one is a usage error naming the known ones. */
export function oracleIdOf(id: string): string {
  const normalized = id.toUpperCase();
  const known = oracleIds();
  if (!known.includes(normalized)) {
    throw new UsageError(`unknown oracle "${id}" (known: ${known.join(', ')}; \`${COMMAND} list\` describes them)`);
  }
  return normalized;
}

export async function loadOracle(id: string): Promise<OracleDefinition<ParamSpecs>> {
  const normalized = oracleIdOf(id);
  const module = (await import(pathToFileURL(oracleModule(normalized)).href)) as {
    default: OracleDefinition<ParamSpecs>;
  };
  return module.default;
}

export async function loadAllOracles(): Promise<Array<OracleDefinition<ParamSpecs>>> {
  return Promise.all(oracleIds().map(loadOracle));
}
