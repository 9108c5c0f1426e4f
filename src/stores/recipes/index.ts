/** Every store the harness can start, by kind. */
import type { StoreKind, StoreRecipe } from '../types.ts';
import { pgbouncerRecipe } from './pgbouncer.ts';
import { postgresRecipe } from './postgres.ts';
import { redisRecipe, valkeyRecipe } from './redis.ts';

const recipes: Partial<Record<StoreKind, StoreRecipe>> = {
  redis: redisRecipe,
  valkey: valkeyRecipe,
  postgres: postgresRecipe,
  pgbouncer: pgbouncerRecipe,
};

export function recipeFor(kind: StoreKind): StoreRecipe {
  const recipe = recipes[kind];
  if (!recipe) throw new Error(`no recipe for store kind "${kind}" (known: ${Object.keys(recipes).join(', ')})`);
  return recipe;
}
