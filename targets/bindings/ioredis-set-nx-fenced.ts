// ioredis SET NX PX + compare-and-delete, and a fencing token (INCR) on every write.
import { Redis } from 'ioredis';
import { ioredisSetNx } from '../adapters/redis-set-nx.ts';

export default ioredisSetNx(({ url }) => new Redis(url), { fence: true });
