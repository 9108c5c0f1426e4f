/**
 * Every store family the harness has, and the family of a store kind. An oracle runs on a store
 * when that store's family offers what the oracle uses (its `stores` list names the kinds).
 */
import type { StoreKind } from '../stores/types.ts';
import { kindsOf, type StoreFamily } from './family.ts';
import { clusterFamily } from './cluster/index.ts';
import { etcdFamily } from './etcd/index.ts';
import { fsFamily } from './fs/index.ts';
import { postgresFamily } from './postgres/index.ts';
import { redisFamily } from './redis/index.ts';
import { zookeeperFamily } from './zookeeper/index.ts';

export const FAMILIES: readonly StoreFamily[] = [
  redisFamily,
  postgresFamily,
  fsFamily,
  clusterFamily,
  etcdFamily,
  zookeeperFamily,
];

export function familyOf(kind: StoreKind): StoreFamily {
  const family = FAMILIES.find((f) => kindsOf(f).includes(kind));
  if (!family) throw new Error(`no store family starts "${kind}" (known: ${FAMILIES.flatMap(kindsOf).join(', ')})`);
  return family;
}
