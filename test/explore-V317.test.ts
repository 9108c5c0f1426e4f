/** V317 --explore over the references it lists for exploration (test/explore-references.ts). */
import { exploreReferencesOf } from './explore-references.ts';

await exploreReferencesOf('V317');
