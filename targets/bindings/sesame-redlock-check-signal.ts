// @sesamecare-oss/redlock 1.4.0: acquire/release/extend; using() whose routine checks signal.aborted before each write.
import { Redis } from 'ioredis';
import { Redlock } from '@sesamecare-oss/redlock';
import { fromRedlock } from '../adapters/redlock.ts';

export default fromRedlock(({ url }) => new Redlock([new Redis(url)]), { checkSignal: true });
