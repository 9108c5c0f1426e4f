// BAD for V318 --writer decide (ORACLES.md row V318): a pure last-write-wins function on the writer's wall clock, `incoming.updatedAt > existing.updatedAt`, with the default stamp { value, updatedAt: Date.now() }.
import { defineTarget } from '../contract.ts';

interface Stamped {
  updatedAt: number;
}

export default defineTarget({
  description: "pure decide(incoming, existing): incoming.updatedAt > existing.updatedAt (the writer's Date.now())",
  decide: (incoming, existing) =>
    existing === null || (incoming as Stamped).updatedAt > (existing as Stamped).updatedAt,
});
