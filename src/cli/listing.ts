/**
 * What `list`, `list --json` and `<ID> --help` print about the oracles, made from their definitions.
 * Making it loads every oracle with its scenario and store code (most of a `list`'s start-up time),
 * so the dist build makes it once (src/build/build-dist.ts writes dist/<build>/listing.json) and
 * the compiled CLI reads it; a run from the sources (tsx) makes it each time.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtDir, loadAllOracles } from '../run/registry.ts';
import { optionName, type ParamSpecs } from '../core/params.ts';
import type { OracleDefinition } from '../oracle/definition.ts';

/** What the listing reads from the fault registry, loaded only when a listing is made (the registry loads every family and its client). */
interface FaultTables {
  faultsOnStore: typeof import('../oracle/explore-spec.ts').faultsOnStore;
  faultRunsOf: typeof import('../oracle/landed-fault.ts').faultRunsOf;
  faultRunText: typeof import('./commands/fault-option.ts').faultRunText;
}

export interface Listing {
  /** Per oracle id, its description as `list` prints it. */
  text: Record<string, string>;
  /** `list --json`'s body. */
  json: { oracles: unknown[] };
}

/** The file a build keeps its listing in, relative to the build dir. */
const LISTING_FILE = 'listing.json';

/**
 * The listing: the build's when running compiled, else (from the sources, or a build whose oracles
 * did not all load: src/build/build-dist.ts) made from the oracles now.
 */
export async function readListing(): Promise<Listing> {
  const dir = builtDir();
  const file = dir && join(dir, LISTING_FILE);
  if (file && existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Listing;
  return makeListing();
}

/** Called by the build (src/build/build-dist.ts) on its own compiled copy of this module. */
export async function writeListing(buildDir: string): Promise<void> {
  writeFileSync(join(buildDir, LISTING_FILE), JSON.stringify(await makeListing()));
}

async function makeListing(): Promise<Listing> {
  // Imported here, not at the top: a built listing is read without loading the registry's families.
  const [{ faultsOnStore }, { faultRunsOf }, { faultRunText }] = await Promise.all([
    import('../oracle/explore-spec.ts'),
    import('../oracle/landed-fault.ts'),
    import('./commands/fault-option.ts'),
  ]);
  const faults: FaultTables = { faultsOnStore, faultRunsOf, faultRunText };
  const oracles = await loadAllOracles();
  return {
    text: Object.fromEntries(oracles.map((o) => [o.id, describe(o, faults)])),
    json: { oracles: oracles.map(listed) },
  };
}

function listed(o: OracleDefinition<ParamSpecs>): unknown {
  return {
    id: o.id,
    title: o.title,
    class: o.class,
    scenario: o.scenario,
    property: o.property,
    stores: o.stores,
    params: o.params,
    needs: needsAtDefaults(o),
    targets: {
      bad: [...new Set(o.references.filter((r) => r.expect === 'FAIL' || r.knownBad).map((r) => r.target))],
      good: [...new Set(o.references.filter((r) => r.expect === 'PASS' && !r.knownBad).map((r) => r.target))],
    },
    references: o.references,
    explore: o.explore
      ? {
          supported: true,
          part: o.explore.part,
          faults: o.explore.faults,
          params: o.explore.params,
          doc: o.explore.doc,
          ...(o.explore.topology
            ? { topology: { faults: o.explore.topology.faults, doc: o.explore.topology.doc } }
            : {}),
          ...(o.explore.contenders
            ? {
                contenders: {
                  holder: o.explore.contenders.holder,
                  part: o.explore.contenders.part,
                  faults: o.explore.contenders.faults,
                  doc: o.explore.contenders.doc,
                },
              }
            : {}),
        }
      : { supported: false },
  };
}

/** The faults --explore lands on each store the oracle runs on (src/faults/registry.ts). */
function faultLines(o: OracleDefinition<ParamSpecs>, { faultsOnStore }: FaultTables): string[] {
  const explore = o.explore;
  if (!explore) return [];
  const lines = o.stores.flatMap((store) => faultsOnStore(explore, store));
  return [
    'Faults by store (--explore):',
    ...lines.map(({ where, faults }) => `  ${where}: ${faults.join(', ')}`),
    ...(explore.ownFaultsOnly ? [`  (no fault that lands itself: ${explore.ownFaultsOnly})`] : []),
  ];
}

/** The target members the oracle calls with its default parameters. */
function needsAtDefaults(o: OracleDefinition<ParamSpecs>): string[] {
  return o.needs(Object.fromEntries(Object.entries(o.params).map(([k, s]) => [k, s.default])) as never);
}

function describe(o: OracleDefinition<ParamSpecs>, faults: FaultTables): string {
  const { faultRunsOf, faultRunText } = faults;
  const params = Object.entries(o.params).map(([name, spec]) => {
    const range = spec.kind === 'choice' ? ` (${spec.choices.join(' | ')})` : '';
    return `  ${optionName(name).padEnd(16)} ${spec.doc}${range}; default ${spec.default}`;
  });
  const refs = o.references.map((r) => {
    const options = [
      ...(r.store ? [`--store ${r.store}`] : []),
      ...Object.entries(r.params ?? {}).map(([k, v]) => `${optionName(k)} ${v}`),
    ];
    const missed = r.knownBad ? `\n        (a bad target this schedule misses: ${r.knownBad})` : '';
    return `  ${r.expect.padEnd(5)} ${r.target}${options.length ? ` ${options.join(' ')}` : ''}${missed}`;
  });
  return [
    `${o.id} — ${o.title}`,
    `Class:     ${o.class}`,
    `Scenario:  ${o.scenario}`,
    `Property:  ${o.property}`,
    `Stores:    ${o.stores.join(', ')}`,
    `Needs:     target members ${needsAtDefaults(o).join(', ')}`,
    // What must hold for a run to prove anything: a run where one did not is INCONCLUSIVE.
    ...(o.preconditions?.length
      ? ['Preconditions (any not held: INCONCLUSIVE):', ...o.preconditions.map((c) => `  - ${c.name}: ${c.checks}`)]
      : []),
    'Parameters:',
    ...params,
    o.explore
      ? `--explore:  ${o.explore.doc} (faults: ${o.explore.faults.join(', ')}; every point runs with ${
          Object.entries(o.explore.params)
            .map(([k, v]) => `${optionName(k)} ${v}`)
            .join(' ') || 'the defaults'
        })`
      : '--explore:  not supported by this oracle yet',
    ...(o.explore?.topology
      ? [`--explore --topology:  ${o.explore.topology.doc} (faults: ${o.explore.topology.faults.join(', ')})`]
      : []),
    ...(o.explore?.contenders
      ? [`            ${o.explore.contenders.doc} (faults: ${o.explore.contenders.faults.join(', ')})`]
      : []),
    ...(Object.keys(faultRunsOf(o)).length
      ? [
          `--fault:    ${Object.entries(faultRunsOf(o))
            .map(([fault, params]) => `${fault} (${faultRunText(params)})`)
            .join(', ')}`,
        ]
      : []),
    ...faultLines(o, faults),
    'Reference targets (expected verdict):',
    ...refs,
    '',
  ].join('\n');
}
