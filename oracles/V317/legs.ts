/**
 * V317's legs: which clock runs ahead in each (A's, B's, the store's), which legs a --variant runs,
 * and how each leg's fault reads in words.
 */
import type { StoreKind } from '../../src/stores/types.ts';

/** One leg's clock setting; a-back is an explored point's (A's clock stepped back), never a --variant. */
export type Variant = 'app-ahead' | 'store-ahead' | 'a-ahead' | 'b-ahead' | 'a-back';

export const VARIANTS: readonly Variant[] = ['app-ahead', 'store-ahead', 'a-ahead', 'b-ahead', 'a-back'];

const LEGS: Record<string, Variant[]> = {
  both: ['app-ahead', 'store-ahead'],
  holders: ['a-ahead', 'b-ahead'],
  'app-ahead': ['app-ahead'],
  'store-ahead': ['store-ahead'],
  'a-ahead': ['a-ahead'],
  'b-ahead': ['b-ahead'],
};

/** The legs a --variant runs on a store (none for a cluster's own variants: ./cluster-play.ts plays those). */
export function legsFor(variant: string, kind: StoreKind): Variant[] {
  if (variant === 'auto') return kind === 'postgres' ? LEGS.both! : LEGS.holders!;
  return LEGS[variant] ?? [];
}

/** Each clock's offset from real time in a leg: A's, B's, the store's. */
export function offsetsFor(variant: Variant, skew: number): { a: number; b: number; store: number } {
  return {
    a: variant === 'app-ahead' || variant === 'a-ahead' ? skew : variant === 'a-back' ? -skew : 0,
    b: variant === 'app-ahead' || variant === 'b-ahead' ? skew : 0,
    store: variant === 'store-ahead' ? skew : 0,
  };
}

export const FAULT_TEXT: Record<Variant, string> = {
  'app-ahead': "holders' wall clocks",
  'store-ahead': 'store wall clock',
  'a-ahead': "A's wall clock",
  'b-ahead': "B's wall clock",
  'a-back': "A's wall clock, stepped back",
};

export function signed(ms: number): string {
  return `${ms > 0 ? '+' : ''}${ms}`;
}
