// BAD for V313 with --contenders 3 (ORACLES.md row V313): a job under the stale-takeover lock of stale-takeover-del.ts (value `<expiresAt>:<token>`, no TTL; a stale lock is DELeted, then taken with SET NX), writing only while its own expiry is ahead. Two contenders that both read the stale value both take the lock: the later DEL removes the lock the other has just taken, and both write at once. With one successor (the default --contenders 2) the takeover is sound and V313 PASSes. Its twin stale-takeover-job-cas.ts differs only in the takeover.
import { staleTakeoverJob } from './stale-takeover-job.ts';

export default staleTakeoverJob({ atomicTakeover: false });
