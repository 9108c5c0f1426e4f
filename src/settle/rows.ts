/**
 * The rows file a scanner writes and `settle` writes back: a list of suspect places, each with the
 * oracle(s) that would settle it. Read and checked up front: every bad row is named before any
 * store or holder starts. Fields this tool does not know are kept as they are.
 */
import { readFileSync } from 'node:fs';
import type { StoreKind } from '../stores/types.ts';
import type { Verdict } from '../core/judgement.ts';
import { RowsFileError } from '../core/errors.ts';

/** One oracle's result on one row (one JUnit testcase). */
export interface OracleResult {
  oracle: string;
  verdict: Verdict;
  runs: number;
  /** How much was tried: "one schedule" (a plain run, × runs) or "explored N points" (--explore). */
  tried: string;
  /** The report directory (relative to where settle ran), when one was written. */
  evidence?: string;
  /** The oracle's one-paragraph explanation (or the usage error that stopped the run). */
  explanation: string;
  /** FAIL: the property's detail and the offending events, on one line. */
  offending?: string;
  wallMs: number;
}

export type RowStatus = 'Confirmed' | 'Refuted' | 'Unconfirmed';

export interface Row {
  id: string;
  location?: string;
  section?: string;
  /** One oracle id, or several. */
  oracle?: string | string[];
  oracles?: string[];
  target: string;
  params?: Record<string, string | number>;
  store?: StoreKind;
  /** Run the row's oracles explored (those that support it), whatever `settle --explore` says. */
  explore?: boolean;
  status?: RowStatus;
  /** Refuted: how much was tried — "one schedule" (weaker: exploring may find more) or "explored N points". */
  strength?: string;
  /** Confirmed: the evidence directory of the first FAIL. */
  evidence?: string;
  /** Confirmed: the offending events' one-line summary. */
  summary?: string;
  /** Unconfirmed: why nothing was settled, and what to try next. */
  reason?: string;
  next?: string;
  results?: OracleResult[];
  [unknownField: string]: unknown;
}

export interface RowsFile {
  rows: Row[];
  [unknownField: string]: unknown;
}

/** The oracle ids a row names (`oracle: "V313"`, `oracle: ["V313","V310"]` or `oracles: [...]`). */
export function rowOracles(row: Row): string[] {
  const named = [row.oracle ?? [], row.oracles ?? []].flat();
  return [...new Set(named.filter((o): o is string => typeof o === 'string').map((o) => o.toUpperCase()))];
}

/** Parses the file's JSON (its shape is checked by checkShape / shapeProblems). */
export function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new RowsFileError(file, [
      `cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    ]);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new RowsFileError(file, [`not JSON: ${(error as Error).message}`]);
  }
  return body;
}

/** The file's shape and every row's own fields; throws RowsFileError naming every problem. */
export function checkShape(file: string, body: unknown): RowsFile {
  const { rowsFile, problems } = shapeProblems(file, body);
  if (problems.length) throw new RowsFileError(file, problems);
  return rowsFile;
}

/** Like checkShape, but returns the problems (and the rows that have them) for the caller to add its own. */
export function shapeProblems(
  file: string,
  body: unknown,
): { rowsFile: RowsFile; problems: string[]; badRows: Set<unknown> } {
  if (typeof body !== 'object' || body === null || !Array.isArray((body as RowsFile).rows)) {
    throw new RowsFileError(file, [
      'expected an object with a "rows" array: {"rows":[{"id":"R1","oracle":"V313","target":"path/to/x.target.ts"}]}',
    ]);
  }
  const problems: string[] = [];
  const badRows = new Set<unknown>();
  const seen = new Set<string>();
  (body as { rows: unknown[] }).rows.forEach((raw, index) => {
    const where = `row ${index + 1}`;
    const before = problems.length;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      problems.push(`${where}: not an object`);
      badRows.add(raw);
      return;
    }
    const row = raw as Record<string, unknown>;
    const name = typeof row.id === 'string' && row.id ? `${where} (${row.id})` : where;
    if (typeof row.id !== 'string' || !row.id)
      problems.push(`${where}: no "id" (a unique name for the row, e.g. "R${index + 1}")`);
    else if (seen.has(row.id)) problems.push(`${name}: the id "${row.id}" is used by an earlier row too`);
    else seen.add(row.id);
    const oracleOk = (o: unknown) =>
      typeof o === 'string' || (Array.isArray(o) && o.length > 0 && o.every((x) => typeof x === 'string'));
    if (row.oracle === undefined && row.oracles === undefined)
      problems.push(`${name}: no "oracle" (the oracle that settles it, e.g. "V313")`);
    else if (
      (row.oracle !== undefined && !oracleOk(row.oracle)) ||
      (row.oracles !== undefined && !oracleOk(row.oracles))
    ) {
      problems.push(`${name}: "oracle" must be an oracle id or a list of them`);
    }
    if (typeof row.target !== 'string' || !row.target)
      problems.push(
        `${name}: no "target" (the target module binding the helper at ${String(row.location ?? 'its location')})`,
      );
    if (
      row.params !== undefined &&
      (typeof row.params !== 'object' || row.params === null || Array.isArray(row.params))
    ) {
      problems.push(`${name}: "params" must be an object of oracle parameters, e.g. {"ttl":300}`);
    }
    if (problems.length > before) badRows.add(raw);
  });
  return { rowsFile: body as RowsFile, problems, badRows };
}

/** `--shard i/n`: rows i, i+n, i+2n, … of the file (1-based), the same rows for the same file on every machine. */
export function parseShard(text: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count)
    throw new Error(`--shard must be i/n with 1 ≤ i ≤ n (e.g. 2/4), got "${text}"`);
  return { index, count };
}

export function inShard(position: number, shard: { index: number; count: number } | undefined): boolean {
  return !shard || position % shard.count === shard.index - 1;
}
