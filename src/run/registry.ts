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

function oracleModule(id: string): string {
  if (typeof LOCK_ORACLES_BUILD === 'string') return join(REPO_ROOT, 'dist', LOCK_ORACLES_BUILD, 'oracles', `${id}.js`);
  const file = oracleFiles(REPO_ROOT).find((f) => f === `${id}.ts` || f === `${id}/index.ts`);
  return join(ORACLES_DIR, file ?? `${id}.ts`);
}

function oracleIds(): string[] {
  return oracleFiles(REPO_ROOT).map((f) => f.replace(/(\/index)?\.ts$/, ''));
}

export async function loadOracle(id: string): Promise<OracleDefinition<ParamSpecs>> {
  const normalized = id.toUpperCase();
  const known = oracleIds();
  if (!known.includes(normalized)) {
    throw new UsageError(`unknown oracle "${id}" (known: ${known.join(', ')}; \`${COMMAND} list\` describes them)`);
  }
  const module = (await import(pathToFileURL(oracleModule(normalized)).href)) as {
    default: OracleDefinition<ParamSpecs>;
  };
  return module.default;
}

export async function loadAllOracles(): Promise<Array<OracleDefinition<ParamSpecs>>> {
  return Promise.all(oracleIds().map(loadOracle));
}
