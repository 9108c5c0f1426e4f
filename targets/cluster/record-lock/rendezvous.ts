/** The home of a key: a rendezvous (highest random weight) hash over the members, so a departing member re-homes only its own keys. */
import { createHash } from 'node:crypto';

export function homeFor(key: string, members: readonly string[]): string {
  let best = '';
  let bestWeight = '';
  for (const member of members) {
    const weight = createHash('sha1').update(`${member}\0${key}`).digest('hex');
    if (weight > bestWeight) [best, bestWeight] = [member, weight];
  }
  return best;
}
