// node-redis SET NX PX + compare-and-delete, and a fencing token (INCR) on every write.
import { createClient } from 'redis';
import { nodeRedisSetNx } from '../adapters/redis-set-nx.ts';

export default nodeRedisSetNx(({ url }) => createClient({ url }), { fence: true });
