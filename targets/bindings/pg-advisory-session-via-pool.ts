// pg advisory lock, scope "session-via-pool" (see targets/adapters/pg-advisory.ts).
import pg from 'pg';
import { pgAdvisoryLock } from '../adapters/pg-advisory.ts';

export default pgAdvisoryLock(
  ({ url, params }) => new pg.Pool({ connectionString: url, max: Number(params.poolMax ?? 2) }),
  { scope: 'session-via-pool' },
);
