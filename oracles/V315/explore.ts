/**
 * How --explore searches V315's schedules: each of the first commands on the lock of A's leader
 * loop after its first write, held before it or run with its reply held, with the rest of A's
 * traffic blackholed from then on (play.ts lands the point).
 */
import type { ExploreSpec } from '../../src/oracle/explore-spec.ts';
import { traceFromFirstWrite } from '../../src/oracle/traces.ts';
import type { v315Params } from './params.ts';

/** How many of the leader loop's commands on the lock, after A's first write, --explore tries. */
const EXPLORED_COMMANDS = 2; // one take-or-extend round (SET NX, then the compare-and-pexpire), or two renewals

export const v315Explore: ExploreSpec<typeof v315Params> = {
  part: 'leader',
  // A kill only ends A's writes (nothing left to judge); a held write receipt alone never lets A's
  // lease lapse while a timer renews it.
  faults: ['hold-before', 'hold-reply'],
  // The cut is the point itself plus a blackhole of the rest of A's traffic.
  params: { fault: 'blackhole' },
  doc: `each of the first ${EXPLORED_COMMANDS} commands on the lock of A's leader loop after its first write: held before it, or run with its reply held, and everything else A sends blackholed from then on, until A's lease lapsed and B led and wrote; then the cut is lifted`,
  references: {
    safe: [
      'targets/redis/leader/cached-flag-fenced.ts',
      'targets/redis/leader/recheck-each-write.ts',
      { target: 'targets/fs/leader-recheck-each-write.ts', store: 'fs' },
    ],
  },
  async trace(s, tracer, p) {
    const a = await tracer.holder(s);
    const { call: loop } = await traceFromFirstWrite(tracer, a, 'leader', (wait) => s.within(wait, p.timeout));
    const enough = () => tracer.boundaries.filter((b) => b.part === 'leader' && b.onKey).length >= EXPLORED_COMMANDS;
    await s.waitUntil(async () => enough(), 3 * p.ttl, Math.max(5, Math.round(p.ttl / 20)));
    tracer.end();
    a.abort();
    await s.within(loop, p.timeout);
  },
  select: (boundaries) =>
    boundaries.filter((b) => (b.kind === 'command' || b.kind === 'fs') && b.onKey === true).slice(0, EXPLORED_COMMANDS),
};
