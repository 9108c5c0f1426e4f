// GOOD for V313 with --contenders 3 (ORACLES.md row V313): stale-takeover-job-del.ts's twin, taking a stale lock over in one compare-and-swap script on the value read: of two contenders that read the same stale value only the first swap finds it, so one job writes at a time.
import { staleTakeoverJob } from './stale-takeover-job.ts';

export default staleTakeoverJob({ atomicTakeover: true });
