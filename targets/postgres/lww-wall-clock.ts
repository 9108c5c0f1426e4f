// BAD for V318 (ORACLES.md row V318): a Postgres upsert that keeps the write with the newer wall-clock stamp (the writer's Date.now()), so a writer whose clock is behind loses although it wrote last.
import { lwwRecordTarget } from './lww-record.ts';

export default lwwRecordTarget(
  "pg: upsert applied only when the writer's Date.now() is newer than the stored stamp",
  'excluded.ts',
);
