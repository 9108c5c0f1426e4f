/** V313 --explore over the references it lists for exploration (test/explore-references.ts). */
import { exploreReferencesOf } from './explore-references.ts';

// redis-semaphore's Mutex refreshes on its own timer: a partition (its refreshes and its writes held
// while it runs) is the fault that lands on it, and the exploration must say it FAILs there.
await exploreReferencesOf('V313', { mustFailAt: { 'targets/redis/semaphore/mutex-job.ts': 'partition' } });
