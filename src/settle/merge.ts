/**
 * `settle merge a.json b.json …`: joins the outputs of `settle --shard i/n` (each holds every row,
 * settled only in its own shard) into one file, as if one job had settled every row.
 */
import { checkShape, readJson, type RowsFile } from './rows.ts';
import { RowsFileError } from '../core/errors.ts';
import { countStatuses } from './outputs.ts';

export function mergeSettled(files: string[]): RowsFile {
  if (!files.length)
    throw new RowsFileError('settle merge', [
      'give the settled rows files to join, e.g. settle merge shard-1.json shard-2.json',
    ]);
  const inputs = files.map((file) => ({ file, body: checkShape(file, readJson(file)) }));
  const first = inputs[0]!;
  const ids = first.body.rows.map((r) => r.id);
  const problems: string[] = [];
  for (const { file, body } of inputs.slice(1)) {
    const theirs = body.rows.map((r) => r.id);
    if (theirs.join('\n') !== ids.join('\n'))
      problems.push(
        `${file} holds other rows than ${first.file} (${theirs.length} vs ${ids.length} rows): shards must come from the same rows file`,
      );
  }
  const merged = structuredClone(first.body);
  merged.rows.forEach((row, position) => {
    const settled = inputs.filter(({ body }) => body.rows[position]?.status !== undefined);
    if (settled.length > 1)
      problems.push(
        `row ${row.id} is settled in ${settled.map((s) => s.file).join(' and ')}: were two shards given the same --shard?`,
      );
    if (settled[0]) merged.rows[position] = structuredClone(settled[0].body.rows[position]!);
  });
  if (problems.length) throw new RowsFileError('settle merge', problems);
  const shards = inputs.map(({ body }) => body.settle as { wallMs?: number; shard?: string } | undefined);
  merged.settle = {
    at: new Date().toISOString(),
    mergedFrom: inputs.map(({ file }, i) => ({ file, shard: shards[i]?.shard ?? 'all', wallMs: shards[i]?.wallMs })),
    counts: countStatuses(merged),
  };
  return merged;
}
