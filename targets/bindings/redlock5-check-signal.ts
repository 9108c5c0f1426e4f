// redlock 5.0.0-beta.2: acquire/release/extend; using() whose routine checks signal.aborted before each write.
import { Redis } from 'ioredis';
import { Redlock } from '../redis/redlock/redlock.ts';
import { fromRedlock } from '../adapters/redlock.ts';

export default fromRedlock(({ url }) => new Redlock([new Redis(url)]), { checkSignal: true });
