/**
 * What the cluster's own faults (./faults/) need of its running nodes: their ids, the key's home,
 * the node a holder takes its locks through, each node's process (SIGSTOP / SIGCONT) and wall
 * clock, and the node-to-node links (a message held, a partition). The scenario's nodes
 * (src/oracle/cluster-nodes.ts) are this; it is declared here so the faults, in the family's
 * folder, land themselves without reaching up into the scenario.
 */
import type { ClockOffsets } from '../../stores/clock-offset/process-clock.ts';
import type { LinkMesh } from '../../wire/link-mesh.ts';

export interface RunningNodes {
  readonly ids: readonly string[];
  /** The lock key's home as the nodes report it (undefined without an inspect member). */
  readonly home: string | undefined;
  /** The node holder `holder` ("A", "B", ...) takes its locks through. */
  nodeOf(holder: string): { readonly id: string };
  /** Every link between the nodes, through the harness's link proxies. */
  readonly links: LinkMesh;
  /** SIGSTOP node `id`. */
  pause(id: string): Promise<unknown>;
  /** SIGCONT node `id`. */
  resume(id: string): unknown;
  /** Node `id`'s own clocks: a step moves its wall clock (or its monotonic clock, forward only) now. */
  clock(id: string): { step(delta: Partial<ClockOffsets>): void };
}
