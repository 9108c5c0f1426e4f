/**
 * The shape of a fault declaration, as the fault registry (issue 31, src/core/fault.ts on the
 * `faults` branch) declares it: this family's faults are written to it so the registry can list
 * them as they are (`StoreFamily.faults`) once both branches are merged; until then the family's
 * own tests land them. Structural only: it adds nothing the registry's `Fault` does not have.
 */
export type ZkBoundaryKind = 'command' | 'seam' | 'effect';

export interface ZkFault {
  readonly name: string;
  /** How much it changes (the registry's scale: hold-before 10, pause ~100, failover 170). */
  readonly rank: number;
  readonly words: string;
  readonly doc: string;
  readonly at: readonly ZkBoundaryKind[];
  readonly topologies: readonly string[];
  inWords(boundary: { text: string }, at: string): string;
}
