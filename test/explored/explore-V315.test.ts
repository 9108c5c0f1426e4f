/** V315 --explore over its explored references that npm test leaves to npm run test:explore (test/explore-split.ts, test/explore-references.ts). */
import { exploreReferencesOf } from '../explore-references.ts';

await exploreReferencesOf('V315', { suite: 'test:explore' });
