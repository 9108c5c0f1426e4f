// GOOD for V318 (ORACLES.md row V318): the bad twin's stamp made a hybrid logical clock, GREATEST(writer's Date.now(), stored + 1), so a write always orders after the row it replaced.
import { lwwRecordTarget } from './lww-record.ts';

export default lwwRecordTarget(
  'pg: upsert stamped GREATEST(writer Date.now(), stored stamp + 1) (a hybrid logical clock)',
  'GREATEST(excluded.ts, r.ts + 1)',
);
