/** Finds the oracles: every oracles/Vnnn.ts file is one oracle; adding V320 is adding a file. */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { COMMAND, REPO_ROOT } from '../core/invocation.ts';
import type { OracleDefinition } from '../oracle/definition.ts';
import type { ParamSpecs } from '../core/params.ts';
import { UsageError } from '../core/errors.ts';

const ORACLES_DIR = fileURLToPath(new URL('../../oracles/', import.meta.url));
export { REPO_ROOT } from '../core/invocation.ts';

/** Set only in the compiled CLI (src/build/build-dist.ts): the build dir (under dist/) holding each oracle's compiled twin. */
declare const LOCK_ORACLES_BUILD: string | undefined;

function oracleModule(id: string): string {
  return typeof LOCK_ORACLES_BUILD === 'string'
    ? join(REPO_ROOT, 'dist', LOCK_ORACLES_BUILD, 'oracles', `${id}.js`)
    : join(ORACLES_DIR, `${id}.ts`);
}

function oracleIds(): string[] {
  return readdirSync(ORACLES_DIR)
    .filter((f) => /^V\d+\.ts$/.test(f))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
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
