// ioredis SET NX PX + compare-and-delete, fixed TTL, no renewal (see targets/adapters/redis-set-nx.ts).
import { Redis } from 'ioredis';
import { ioredisSetNx } from '../adapters/redis-set-nx.ts';

export default ioredisSetNx(({ url }) => new Redis(url));
