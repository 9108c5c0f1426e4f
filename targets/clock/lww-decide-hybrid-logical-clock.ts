// GOOD for V318 --writer decide (ORACLES.md row V318): the bad twin's decide, with the write stamped by a hybrid logical clock, max(Date.now(), existing + 1), so a write always orders after the record it read.
import { defineTarget } from '../contract.ts';

interface Stamped {
  updatedAt: number;
}

export default defineTarget({
  description:
    'pure decide(incoming, existing): incoming.updatedAt > existing.updatedAt, stamped max(Date.now(), existing.updatedAt + 1)',
  stamp: (_env, value, existing) => ({
    value,
    updatedAt: Math.max(Date.now(), existing === null ? 0 : (existing as Stamped).updatedAt + 1),
  }),
  decide: (incoming, existing) =>
    existing === null || (incoming as Stamped).updatedAt > (existing as Stamped).updatedAt,
});
