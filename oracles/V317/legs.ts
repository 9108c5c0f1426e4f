/**
 * V317's legs: which clock runs ahead in each (A's, B's, the store's), which legs a --variant runs
 * (auto: by where the store compares a lease's expiry), and how each leg's fault reads in words.
 */
import type { ExpiryClock } from '../../src/oracle/expiry-clock.ts';

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

/**
 * What --variant auto runs, by where the store compares a lease's expiry: the app's clock against
 * the store's where the store compares an instant the app wrote; one holder's against another's where
 * the store counts a duration itself or each contender ages the lock; the key's home node's clocks
 * ahead of the other nodes' where the target's own nodes keep the deadlines (./cluster-play.ts).
 */
const AUTO: Record<ExpiryClock, string> = {
  store: 'both',
  duration: 'holders',
  contender: 'holders',
  nodes: 'home-ahead',
};

/** The variants that skew the clocks of the target's own nodes (the key's home's), played by ./cluster-play.ts. */
export const NODE_VARIANTS: readonly string[] = ['home-ahead', 'home-behind'];

/** The variant a run plays: --variant auto resolved by where the store compares a lease's expiry. */
function variantFor(variant: string, expiryClock: ExpiryClock): string {
  return variant === 'auto' ? AUTO[expiryClock] : variant;
}

/** The legs a --variant runs where the store compares a lease's expiry so (none for the nodes' variants: ./cluster-play.ts plays those). */
export function legsFor(variant: string, expiryClock: ExpiryClock): Variant[] {
  return LEGS[variantFor(variant, expiryClock)] ?? [];
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
