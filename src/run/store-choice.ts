/**
 * Which store a run starts when the user gave no --store: the first of the oracle's stores whose
 * family the target's own imports show, in the target's language (target-imports.ts): ioredis or
 * node-redis, redis-py, Jedis, redigo → Redis; pg, psycopg, pgjdbc → Postgres; Curator, kazoo →
 * ZooKeeper; etcd3, jetcd, Go's clientv3 → etcd (each family names its clients by language), else
 * the oracle's default. A Redis job-queue target run on
 * an oracle whose default is Postgres then gets Redis, instead of its client's "Invalid protocol"
 * on a postgres:// URL. The choice and why go into the evidence and the progress lines.
 */
import { FAMILIES, familyOf } from '../families/index.ts';
import { kindsOf, type StoreFamily } from '../families/family.ts';
import type { StoreKind } from '../stores/types.ts';
import { holderLanguage } from '../holder/holder-language.ts';
import { isWithin, librariesImportedBy } from './target-imports.ts';

export interface StoreChoice {
  kind: StoreKind;
  /** How it was chosen, in a sentence for the evidence. */
  why: string;
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
  const language = holderLanguage(targetPath);
  const imported = await librariesImportedBy(targetPath, language).catch(() => new Set<string>());
  const clientsOf = (family: StoreFamily) => family.clients[language] ?? [];
  const importedOf = (family: StoreFamily) =>
    clientsOf(family).filter((library) => [...imported].some((name) => isWithin(name, library)));
  const used = FAMILIES.filter((family) => importedOf(family).length > 0);
  const kind = stores.find((candidate) => used.some((family) => kindsOf(family).includes(candidate)));
  if (kind === undefined)
    return {
      kind: fallback,
      why: `${oracleId}'s default store: the target imports no ${language} client the harness knows (${FAMILIES.flatMap(clientsOf).join(', ')}); ${other} picks another`,
    };
  const by = importedOf(familyOf(kind));
  return {
    kind,
    why: `chosen from the target's imports (${by.join(', ')})${kind === fallback ? '' : `; ${oracleId}'s default is ${fallback}`}; --store picks another`,
  };
}
