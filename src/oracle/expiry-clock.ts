/**
 * On whose clock a store compares a lease's expiry (its family's `expiryClock`), for an oracle that
 * picks the clocks it skews by it (V317) and may not import a family: `duration` where the family
 * declares none, the store counting a lease's time itself.
 */
import type { StoreFamily } from '../families/family.ts';
import { familyOf } from '../families/index.ts';
import type { StoreKind } from '../stores/types.ts';

export type ExpiryClock = NonNullable<StoreFamily['expiryClock']> | 'duration';

export function expiryClockOf(store: StoreKind): ExpiryClock {
  return familyOf(store).expiryClock ?? 'duration';
}
