/**
 * Before any test: every store the suite starts must be installable here. One clear message with
 * the fix instead of a hundred failures that each say the same thing.
 */
import { recipeFor } from '../src/families/recipes.ts';
import type { StoreKind } from '../src/stores/types.ts';

export default async function checkStoresInstalled(): Promise<void> {
  const kinds: StoreKind[] = ['redis', 'valkey', 'postgres', 'pgbouncer'];
  const missing = (await Promise.all(kinds.map((kind) => recipeFor(kind).missing()))).filter((e) => e !== null);
  if (missing.length) {
    throw new Error(
      `the test suite runs real stores, and this machine lacks some:\n${missing.map((e) => `- ${e.message}`).join('\n')}`,
    );
  }
}
