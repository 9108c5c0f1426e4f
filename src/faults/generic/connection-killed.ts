/**
 * Connection killed: the store itself closes A's connections (Redis CLIENT KILL, Postgres
 * pg_terminate_backend: the family's `StoreView.killClients`) while A's process runs on, and A's
 * wire proxy refuses its reconnects until lifted. A session-scoped lock (a Postgres advisory lock)
 * is freed by the server with the session, so another holder takes it at once. Lands itself
 * (`land`): the oracle names the moment, this file does the rest.
 */
import type { LandableFault } from '../landing.ts';

export const CONNECTION_KILLED: LandableFault = {
  name: 'connection-killed',
  rank: 45,
  words: "A's connections closed by the store",
  doc: "the store closes A's connections from its side (Redis CLIENT KILL, Postgres pg_terminate_backend) while A's process runs on, and A's wire proxy refuses its reconnects until lifted: a session's lock (a Postgres advisory lock) is freed by the server with it; where the store cannot close a client's connection it does not apply",
  at: ['effect'],
  topologies: ['single'],
  stores: ['redis', 'valkey', 'postgres'],
  inWords: (_boundary, at) =>
    `A's connections were closed by the store (${at}) and its reconnects refused at its wire proxy while A ran on`,
  async land({ holder, wire, view, store: { kind: storeKind }, faults }) {
    if (!wire)
      return {
        reached: false,
        why: `connection-killed closes A's store connections, which a ${storeKind} store does not have: its calls can be held instead (blackhole, partition)`,
      };
    const store = view();
    if (!store.killClients)
      return {
        reached: false,
        why: `connection-killed needs the store to close a client's connection from its side, which a ${storeKind} store cannot`,
      };
    // Refuse first: A's client, told its connection is gone, must not get a new one in between.
    const refuse = wire.refuse();
    const addresses = wire.connections().flatMap((c) => (c.upstream ? [c.upstream] : []));
    const kill = await store.killClients(addresses);
    const record = faults.apply('wire', holder.id, kill.command, { killed: kill.killed, addresses });
    faults.lift(record);
    return {
      reached: true,
      record: refuse.record,
      took: kill.killed > 0,
      words: `the store closed ${kill.killed} of A's connection(s) (${kill.command}) and A's wire proxy refused its reconnects`,
      facts: { action: kill.command, killed: kill.killed, addresses },
      lift: () => refuse.lift(),
    };
  },
};
