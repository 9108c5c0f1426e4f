/**
 * `npm run oracle -- list [--json]`: every oracle with its parameters, the target members it needs,
 * its explore support and its references; `<ID> --help` prints one oracle's part of it.
 */
import { EXIT } from '../exit-codes.ts';
import { loadAllOracles } from '../../run/registry.ts';
import { optionName, type ParamSpecs } from '../../core/params.ts';
import type { OracleDefinition } from '../../oracle/definition.ts';
import type { Values } from '../options/values.ts';

export async function list(values: Values<'list'>): Promise<number> {
  const oracles = await loadAllOracles();
  if (values.json) {
    const body = {
      oracles: oracles.map((o) => ({
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
      })),
    };
    process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    return EXIT.PASS;
  }
  process.stdout.write(oracles.map(describe).join('\n'));
  return EXIT.PASS;
}

/** The target members the oracle calls with its default parameters. */
function needsAtDefaults(o: OracleDefinition<ParamSpecs>): string[] {
  return o.needs(Object.fromEntries(Object.entries(o.params).map(([k, s]) => [k, s.default])) as never);
}

export function describe(o: OracleDefinition<ParamSpecs>): string {
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
    'Reference targets (expected verdict):',
    ...refs,
    '',
  ].join('\n');
}
