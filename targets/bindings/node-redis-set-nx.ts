// node-redis SET NX PX + compare-and-delete, fixed TTL, no renewal (see targets/adapters/redis-set-nx.ts).
import { createClient } from 'redis';
import { nodeRedisSetNx } from '../adapters/redis-set-nx.ts';

export default nodeRedisSetNx(({ url }) => createClient({ url }));
