/**
 * Which store a run starts when the user gave no --store: the first of the oracle's stores whose
 * family the target's own imports show (ioredis or node-redis → Redis; pg → Postgres; src/families/
 * names each family's client packages), else the oracle's default. A Redis job-queue target run on
 * an oracle whose default is Postgres then gets Redis, instead of its client's "Invalid protocol"
 * on a postgres:// URL. The choice and why go into the evidence and the progress lines.
 */
import { build } from 'esbuild';
import { FAMILIES, familyOf } from '../families/index.ts';
import { kindsOf } from '../families/family.ts';
import type { StoreKind } from '../stores/types.ts';

export interface StoreChoice {
  kind: StoreKind;
  /** How it was chosen, in a sentence for the evidence. */
  why: string;
}

/** The packages a target imports, itself or through its own files (not through packages), by esbuild's resolution. */
export async function packagesImportedBy(targetPath: string): Promise<Set<string>> {
  const result = await build({
    entryPoints: [targetPath],
    bundle: true,
    write: false,
    metafile: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
  });
  const imported = new Set<string>();
  for (const output of Object.values(result.metafile.outputs))
    for (const { path, external } of output.imports) {
      if (!external || path.startsWith('node:') || path.startsWith('.')) continue;
      imported.add(path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0]!);
    }
  return imported;
}

export async function chooseStore(
  oracleId: string,
  stores: readonly StoreKind[],
  targetPath: string,
): Promise<StoreChoice> {
  const fallback = stores[0]!;
  const other = `--store ${stores.filter((kind) => kind !== fallback).join(' or --store ')}`;
  if (stores.length < 2 || new Set(stores.map((kind) => familyOf(kind).name)).size < 2)
    return { kind: fallback, why: `${oracleId}'s default store` };
  const imported = await packagesImportedBy(targetPath).catch(() => new Set<string>());
  const used = FAMILIES.filter((family) => family.clients.some((name) => imported.has(name)));
  const kind = stores.find((candidate) => used.some((family) => kindsOf(family).includes(candidate)));
  if (kind === undefined)
    return {
      kind: fallback,
      why: `${oracleId}'s default store: the target imports no client the harness knows (${FAMILIES.flatMap((f) => f.clients).join(', ')}); ${other} picks another`,
    };
  const by = familyOf(kind).clients.filter((name) => imported.has(name));
  return {
    kind,
    why: `chosen from the target's imports (${by.join(', ')})${kind === fallback ? '' : `; ${oracleId}'s default is ${fallback}`}; --store picks another`,
  };
}
