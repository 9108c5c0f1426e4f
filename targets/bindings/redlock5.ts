// redlock 5.0.0-beta.2: acquire/release/extend; using() whose routine ignores its AbortSignal.
import { Redis } from 'ioredis';
import { Redlock } from '../redis/redlock/redlock.ts';
import { fromRedlock } from '../adapters/redlock.ts';

export default fromRedlock(({ url }) => new Redlock([new Redis(url)]));
