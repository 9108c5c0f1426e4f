/** Every store the harness can start, by kind: the recipes of every family (src/families/index.ts). */
import type { StoreKind, StoreRecipe } from '../stores/types.ts';
import { familyOf } from './index.ts';

export function recipeFor(kind: StoreKind): StoreRecipe {
  return familyOf(kind).recipes.find((recipe) => recipe.kind === kind)!;
}
