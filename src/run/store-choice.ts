/**
 * Which store a run starts when the user gave no --store: the first of the oracle's stores whose
 * family the target's own imports show, in the target's language (target-imports.ts): ioredis or
 * node-redis, redis-py, Jedis, redigo → Redis; pg, psycopg, pgjdbc → Postgres; Curator, kazoo →
 * ZooKeeper; etcd3, jetcd, Go's clientv3 → etcd (each family names its clients by language), else
 * the oracle's default. A Redis job-queue target run on
 * an oracle whose default is Postgres then gets Redis, instead of its client's "Invalid protocol"
 * on a postgres:// URL. The choice and why go into the evidence and the progress lines.
 *
 * A --store the target cannot talk to is refused the same way: a target that imports only another
 * family's clients (pg, and --store redis) would otherwise wait out its acquire's 30 s against a
 * server that never answers its protocol.
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

/**
 * Why `kind` (from --store) cannot be the store of this target on an oracle that runs on `stores`, or undefined: the kind's family is a
 * server reached by a client (not a directory), the target imports no client of it but does import
 * another family's. A target whose imports name no client the harness knows is never refused.
 */
export async function storeTargetMismatch(
  oracleId: string,
  stores: readonly StoreKind[],
  kind: StoreKind,
  targetPath: string,
): Promise<string | undefined> {
  const family = familyOf(kind);
  if (family.holderDir) return undefined;
  const language = holderLanguage(targetPath);
  const imported = await librariesImportedBy(targetPath, language).catch(() => new Set<string>());
  const importedOf = (f: StoreFamily) =>
    (f.clients[language] ?? []).filter((library) => [...imported].some((name) => isWithin(name, library)));
  if (importedOf(family).length > 0) return undefined;
  const others = FAMILIES.filter((f) => importedOf(f).length > 0);
  if (!others.length) return undefined;
  const libraries = others.flatMap(importedOf).join(', ');
  const fits = others.flatMap((f) =>
    kindsOf(f)
      .filter((k) => stores.includes(k))
      .slice(0, 1),
  );
  const cannot = `--store ${kind}: the target imports ${libraries}, a client of ${others.map((f) => f.name).join(' and ')}, and none of ${family.name}'s (${(family.clients[language] ?? []).join(', ')}), so it could not talk to the ${kind} server`;
  return fits.length
    ? `${cannot}; run it with --store ${fits.join(' or --store ')} (or without --store: the target's imports choose)`
    : `${cannot}; ${oracleId} runs on ${stores.join(', ')}, none of them a store this target's clients talk to`;
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
