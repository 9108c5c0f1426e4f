/**
 * The oracle docs, generated from the oracle definitions (oracles/Vnnn.ts) so they never drift from
 * them: the README's oracle table (between `<!-- oracles:begin -->` and `<!-- oracles:end -->`, one
 * short row per oracle) and docs/oracles/Vnnn.md, one page per oracle (class, scenario, property,
 * stores, holders, parameters, preconditions, references, mutations, explore).
 *
 *   npm run docs          rewrite both (test/docs.test.ts fails when either differs from this output)
 *
 * The rendering functions are pure and exported, so the test compares without writing files.
 */
import { readFileSync, writeFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAllOracles } from '../src/run/registry.ts';
import { optionName, MAX_COUNT, MAX_MS, type ParamSpec, type ParamSpecs } from '../src/core/params.ts';
import { FAULT_WORDS } from '../src/faults/registry.ts';
import type { OracleDefinition } from '../src/oracle/definition.ts';
import { faultsOnStore } from '../src/oracle/explore-spec.ts';
import { faultRunText } from '../src/cli/commands/fault-option.ts';
import { faultRunsOf } from '../src/oracle/landed-fault.ts';
import type { ReferenceRun } from '../src/oracle/reference-run.ts';
import { READS_JUDGEABLE, READS_JUDGEABLE_CHECKS } from '../src/judging/unreadable-reads.ts';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BEGIN = '<!-- oracles:begin -->';
export const END = '<!-- oracles:end -->';
/** Where the pages go, relative to the repository root. */
export const PAGES_DIR = 'docs/oracles';
/** The longest one-line scenario a README row shows (the page has it in full). */
const ROW_SCENARIO_MAX = 180;

type Oracle = OracleDefinition<ParamSpecs>;
/** A precondition as an oracle declares it (`preconditions` in its definition; being added oracle by oracle). */
interface DeclaredPrecondition {
  name: string;
  checks: string;
}

function declaredPreconditions(oracle: Oracle): readonly DeclaredPrecondition[] {
  return (oracle as Oracle & { preconditions?: readonly DeclaredPrecondition[] }).preconditions ?? [];
}

/** One table cell: one line, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

/** The scenario in at most ROW_SCENARIO_MAX characters: whole, else its first sentence, else cut at a word. */
export function shortScenario(scenario: string): string {
  const text = scenario.replace(/\s+/g, ' ').trim();
  if (text.length <= ROW_SCENARIO_MAX) return text;
  const sentence = /^.*?[.!?](?=\s)/.exec(text)?.[0];
  if (sentence && sentence.length <= ROW_SCENARIO_MAX) return sentence;
  const cut = text.slice(0, ROW_SCENARIO_MAX - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ')).replace(/[,;:]$/, '')}…`;
}

/** The README's table: one row per oracle, its id linked to its page. */
export function renderOracleTable(oracles: readonly Oracle[]): string {
  const rows = oracles.map(
    (o) =>
      `| [${o.id}](${PAGES_DIR}/${o.id}.md) | ${cell(o.title)} | ${o.stores.join(', ')} | ${cell(shortScenario(o.scenario))} |`,
  );
  return ['| oracle | what it catches | stores | scenario (in short) |', '|---|---|---|---|', ...rows].join('\n');
}

/** README.md with the table between the markers replaced; throws when the markers are missing. */
export function withOracleTable(readme: string, oracles: readonly Oracle[]): string {
  const begin = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`README.md lacks the markers ${BEGIN} … ${END}`);
  return `${readme.slice(0, begin + BEGIN.length)}\n${renderOracleTable(oracles)}\n${readme.slice(end)}`;
}

function range(spec: ParamSpec): string {
  switch (spec.kind) {
    case 'ms':
      return `${spec.min ?? 1}–${spec.max ?? MAX_MS} ms`;
    case 'count':
      return `${spec.min ?? 0}–${spec.max ?? MAX_COUNT}`;
    case 'choice':
      return spec.choices.map((c) => `\`${c}\``).join(' \\| ');
    case 'text':
      return 'any text';
  }
}

function options(params: Record<string, string | number> | undefined): string {
  const entries = Object.entries(params ?? {});
  return entries.length ? entries.map(([k, v]) => `\`${optionName(k)} ${v}\``).join(' ') : '—';
}

function referenceRow(o: Oracle, r: ReferenceRun): string {
  const link = `[\`${r.target}\`](../../${r.target})`;
  const known = r.knownBad ? `known bad, this schedule misses it: ${r.knownBad}` : '';
  return `| ${link} | ${r.expect} | ${options(r.params)} | ${r.store ?? o.stores[0]} | ${cell(known)} |`;
}

/** docs/oracles/<id>.md: everything the definition declares, for a reader who does not read TypeScript. */
export function renderOraclePage(o: Oracle): string {
  const defaults = Object.fromEntries(Object.entries(o.params).map(([k, s]) => [k, s.default])) as never;
  const later = new Set(o.later ?? []);
  const holders = o.holders.map((h) => (later.has(h) ? `${h} (later: loads while the scenario plays)` : h));
  const preconditions = declaredPreconditions(o);
  const lines = [
    `<!-- Generated by \`npm run docs\` (scripts/docs.ts) from oracles/${o.id}.ts: edit the definition, not this page. -->`,
    '',
    `# ${o.id}: ${o.title}`,
    '',
    `**Class:** ${o.class}`,
    '',
    '## Scenario',
    '',
    o.scenario,
    '',
    '## Property (PASS when)',
    '',
    o.property,
    '',
    '## Stores',
    '',
    `${o.stores.map((s, i) => (i === 0 ? `\`${s}\` (default)` : `\`${s}\``)).join(', ')}; \`--store\` picks another.`,
    '',
    '## Holders',
    '',
    `${holders.join(', ')}. Target members called (default parameters): ${o
      .needs(defaults)
      .map((m) => `\`${m}\``)
      .join(', ')}.`,
    '',
    '## Parameters',
    '',
    '| option | kind | default | range | doc |',
    '|---|---|---|---|---|',
    ...Object.entries(o.params).map(
      ([name, spec]) =>
        `| \`${optionName(name)}\` | ${spec.kind} | \`${spec.default}\` | ${range(spec)} | ${cell(spec.doc)} |`,
    ),
    '',
    '## Preconditions (else INCONCLUSIVE)',
    '',
    ...(preconditions.length
      ? [...preconditions, { name: READS_JUDGEABLE, checks: `${READS_JUDGEABLE_CHECKS} (every oracle)` }].map(
          (p) => `- **${p.name}**: ${cell(p.checks)}`,
        )
      : [
          'Not yet declared in the definition (`preconditions`); the scenario checks them in `play`, and',
          `[../oracle-details.md](../oracle-details.md#${o.id.toLowerCase()}) describes them.`,
        ]),
    '',
    '## References',
    '',
    `The oracle must FAIL every bad reference and PASS every good one (\`npm run oracle -- references\`)${
      o.stores.includes('redis') && o.stores.includes('valkey') ? '; every Redis reference runs on Valkey too' : ''
    }.`,
    '',
    '| target | expect | parameters | store | note |',
    '|---|---|---|---|---|',
    ...o.references.map((r) => referenceRow(o, r)),
    '',
  ];
  if (o.mutations?.length) {
    lines.push(
      '## Mutations',
      '',
      'Good references with their guard removed; each must FAIL (`npm run oracle -- selfcheck`).',
      '',
      '| of | guard removed |',
      '|---|---|',
      ...o.mutations.map((m) => `| [\`${m.of}\`](../../${m.of}) | ${cell(m.guard)} |`),
      '',
    );
  }
  if (o.explore) {
    lines.push(
      '## Explore (`--explore`)',
      '',
      `What a point does: ${o.explore.doc}.`,
      '',
      `Faults: ${o.explore.faults.map((f) => `\`${f}\` (${FAULT_WORDS[f]})`).join(', ')}. See [../explore.md](../explore.md).`,
      '',
      ...(o.explore.topology
        ? [
            `On a topology: ${o.explore.topology.doc} (faults: ${o.explore.topology.faults.map((f) => `\`${f}\``).join(', ')}; see [../topologies.md](../topologies.md#explored-failovers---explore---topology)).`,
            '',
          ]
        : []),
      ...(o.explore.contenders
        ? [
            `Contenders' points: ${o.explore.contenders.doc} (faults: ${o.explore.contenders.faults.map((f) => `\`${f}\``).join(', ')}; see [../explore.md](../explore.md#three-or-more-contenders---contenders-n)).`,
            '',
          ]
        : []),
      ...(Object.keys(faultRunsOf(o)).length
        ? [
            `One fault on a plain run (\`--fault NAME\`, the variant it was before still taken): ${Object.entries(
              faultRunsOf(o),
            )
              .map(([fault, params]) => `\`${fault}\` (\`${faultRunText(params)}\`)`)
              .join(', ')}.`,
            '',
          ]
        : []),
      'Faults by store (from the fault registry, `src/faults/registry.ts`):',
      '',
      '| store | faults |',
      '|---|---|',
      ...o.stores
        .flatMap((store) => faultsOnStore(o.explore!, store))
        .map(({ where, faults }) => `| ${where} | ${faults.map((f) => `\`${f}\``).join(', ')} |`),
      '',
      ...(o.explore.ownFaultsOnly
        ? [`No fault that lands itself is put at its points: ${o.explore.ownFaultsOnly}.`, '']
        : []),
    );
  } else {
    lines.push('## Explore (`--explore`)', '', 'Not explorable (see [../explore.md](../explore.md)).', '');
  }
  return lines.join('\n');
}

/** Every generated file: its path relative to the root, and its content. */
export async function renderAll(readme: string): Promise<Map<string, string>> {
  const oracles = await loadAllOracles();
  const files = new Map<string, string>([['README.md', withOracleTable(readme, oracles)]]);
  for (const o of oracles) files.set(`${PAGES_DIR}/${o.id}.md`, renderOraclePage(o));
  return files;
}

async function main(): Promise<void> {
  const files = await renderAll(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  mkdirSync(join(ROOT, PAGES_DIR), { recursive: true });
  for (const stale of readdirSync(join(ROOT, PAGES_DIR))) {
    if (!files.has(`${PAGES_DIR}/${stale}`)) rmSync(join(ROOT, PAGES_DIR, stale));
  }
  for (const [path, content] of files) writeFileSync(join(ROOT, path), content);
  console.log(`docs: wrote README.md's oracle table and ${files.size - 1} pages in ${PAGES_DIR}/`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
