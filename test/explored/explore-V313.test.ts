/** V313 --explore over its explored references that npm test leaves to npm run test:explore (test/explore-split.ts, test/explore-references.ts). */
import { exploreReferencesOf } from '../explore-references.ts';

// redis-semaphore's Mutex refreshes on its own timer: a partition (its refreshes and its writes held
// while it runs) is the fault that lands on it, and the exploration must say it FAILs there.
// On redlock:5 the smallest failing point is A's pause inside its acquire; a master restarted empty
// inside A's lease must FAIL the unfenced helper too (Redlock's own failure, not only a pause).
await exploreReferencesOf('V313', {
  suite: 'test:explore',
  mustFailAt: {
    'targets/redis/semaphore/mutex-job.ts': 'partition',
    'targets/redis/redlock-quorum/redlock-acquire.ts': 'node-restart',
  },
});
