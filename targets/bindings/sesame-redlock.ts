// @sesamecare-oss/redlock 1.4.0: acquire/release/extend; using() whose routine ignores its AbortSignal.
import { Redis } from 'ioredis';
import { Redlock } from '@sesamecare-oss/redlock';
import { fromRedlock } from '../adapters/redlock.ts';

export default fromRedlock(({ url }) => new Redlock([new Redis(url)]));
