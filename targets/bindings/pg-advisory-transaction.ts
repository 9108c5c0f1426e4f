// pg advisory lock, scope "transaction" (see targets/adapters/pg-advisory.ts).
import pg from 'pg';
import { pgAdvisoryLock } from '../adapters/pg-advisory.ts';

export default pgAdvisoryLock(
  ({ url, params }) => new pg.Pool({ connectionString: url, max: Number(params.poolMax ?? 2) }),
  { scope: 'transaction' },
);
