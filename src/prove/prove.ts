/**
 * prove: the failing-first proof of a fix. The same oracle, parameters and store run N times on
 * the code before the fix and N times on the code after it. The proof is valid only when every
 * before-run FAILs and every after-run PASSes (an INCONCLUSIVE run proves nothing, so it breaks
 * the proof too). Writes proof.json and proof.md beside both sides' evidence, with each side's
 * commit, dirty flag and the sha256 of the target and of the local files it imports.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { runOracle, type RunRequest } from '../run/run-oracle.ts';
import { writeRunReport } from '../report/write-report.ts';
import { firstLine, type Verdict } from '../core/judgement.ts';
import { UsageError } from '../core/errors.ts';
import type { RuntimeChoice } from '../families/start-store.ts';
import type { StoreKind } from '../stores/types.ts';
import { describeSources, type SideSource } from './sources.ts';
import { checkoutTargetAt, type CheckedOut } from './worktree.ts';

export interface ProveOptions {
  oracle: string;
  /** Two target files… */
  before?: string;
  after?: string;
  /** …or one target at two git revisions (after: the working tree when afterRef is not given). */
  target?: string;
  beforeRef?: string;
  afterRef?: string;
  params?: Record<string, unknown>;
  store?: StoreKind;
  runtime?: RuntimeChoice;
  /** Runs per side (default 5). */
  runs?: number;
  /** Where proof.md, proof.json and each side's evidence go (default reports/proof-<time>-<oracle>). */
  outDir?: string;
  progress?: (message: string) => void;
}

export interface ProofRun {
  run: number;
  verdict: Verdict;
  detail: string;
  evidence: string;
  storeVersion: string | null;
}

export interface ProofSide extends SideSource {
  side: 'before' | 'after';
  expected: 'FAIL' | 'PASS';
  /** The git ref asked for, or "working tree" / "file". */
  ref: string;
  runs: ProofRun[];
  /** Every run gave the expected verdict (false also when the side was not run). */
  held: boolean;
  /** How the side broke the proof, in a sentence. */
  broke?: string;
}

export interface Proof {
  schemaVersion: 1;
  valid: boolean;
  oracle: string;
  params: Record<string, string | number>;
  store: { kind: string; version: string | null };
  runsPerSide: number;
  explanation: string;
  before: ProofSide;
  after: ProofSide;
  /** The directory holding proof.md, proof.json and the runs' evidence. */
  dir: string;
}

export async function prove(options: ProveOptions): Promise<Proof> {
  const runs = options.runs ?? 5;
  const progress = options.progress ?? (() => undefined);
  const checkouts: CheckedOut[] = [];
  try {
    const sides = await resolveSides(options, checkouts);
    const dir = resolve(
      options.outDir ??
        join('reports', `proof-${new Date().toISOString().replace(/[:.]/g, '-')}-${options.oracle.toUpperCase()}`),
    );
    mkdirSync(dir, { recursive: true });
    const request = (target: string): RunRequest => ({
      oracle: options.oracle,
      target,
      params: options.params ?? {},
      ...(options.store ? { store: options.store } : {}),
      ...(options.runtime ? { runtime: options.runtime } : {}),
    });

    const before = await playSide('before', 'FAIL', sides.before, request(sides.before.path), runs, dir, progress);
    const after = before.held
      ? await playSide('after', 'PASS', sides.after, request(sides.after.path), runs, dir, progress)
      : {
          ...(await sourceOnly('after', 'PASS', sides.after)),
          broke: 'not run: the before side already broke the proof',
        };

    const versions = [...new Set([...before.runs, ...after.runs].map((r) => r.storeVersion).filter((v) => v !== null))];
    const sameStore = versions.length <= 1;
    const valid = before.held && after.held && sameStore;
    const proof: Proof = {
      schemaVersion: 1,
      valid,
      oracle: options.oracle.toUpperCase(),
      params: before.params ?? {},
      store: { kind: before.storeKind ?? options.store ?? 'not started', version: versions[0] ?? null },
      runsPerSide: runs,
      explanation: explain(before, after, sameStore, versions),
      before: strip(before),
      after: strip(after),
      dir,
    };
    writeFileSync(join(dir, 'proof.json'), `${JSON.stringify(proof, null, 2)}\n`);
    writeFileSync(join(dir, 'proof.md'), proofMarkdown(proof));
    return proof;
  } finally {
    for (const checkout of checkouts) await checkout.remove();
  }
}

interface SideInput {
  path: string;
  ref: string;
}

async function resolveSides(
  options: ProveOptions,
  checkouts: CheckedOut[],
): Promise<{ before: SideInput; after: SideInput }> {
  const byFile = options.before !== undefined || options.after !== undefined;
  const byRef = options.target !== undefined || options.beforeRef !== undefined || options.afterRef !== undefined;
  if (byFile === byRef)
    throw new UsageError(
      'give either --before <target> --after <target>, or --target <target> --before-ref <ref> [--after-ref <ref>]',
    );
  if (byFile) {
    if (!options.before || !options.after) throw new UsageError('--before and --after both need a target file');
    return { before: { path: options.before, ref: 'file' }, after: { path: options.after, ref: 'file' } };
  }
  if (!options.target || !options.beforeRef)
    throw new UsageError(
      '--target <target> and --before-ref <ref> are both needed (--after-ref defaults to the working tree)',
    );
  const before = await checkoutTargetAt(options.target, options.beforeRef);
  checkouts.push(before);
  let after: SideInput = { path: options.target, ref: 'working tree' };
  if (options.afterRef) {
    const checked = await checkoutTargetAt(options.target, options.afterRef);
    checkouts.push(checked);
    after = { path: checked.target, ref: options.afterRef };
  }
  return { before: { path: before.target, ref: options.beforeRef }, after };
}

type PlayedSide = ProofSide & { path: string; params?: Record<string, string | number>; storeKind?: string };

async function sourceOnly(side: 'before' | 'after', expected: 'FAIL' | 'PASS', input: SideInput): Promise<PlayedSide> {
  return {
    side,
    expected,
    ref: input.ref,
    path: input.path,
    ...(await describeSources(input.path)),
    runs: [],
    held: false,
  };
}

/** N runs; stops at the first run that breaks the proof (the rest could not mend it). */
async function playSide(
  side: 'before' | 'after',
  expected: 'FAIL' | 'PASS',
  input: SideInput,
  request: RunRequest,
  runs: number,
  dir: string,
  progress: (m: string) => void,
): Promise<PlayedSide> {
  const played = await sourceOnly(side, expected, input);
  for (let run = 1; run <= runs; run++) {
    const record = await runOracle(request);
    played.params ??= record.params;
    if (record.store) played.storeKind ??= record.store.kind;
    const evidence = relative(dir, writeRunReport(record, join(dir, side)));
    played.runs.push({
      run,
      verdict: record.verdict,
      detail: record.property?.detail ?? firstLine(record.explanation),
      evidence,
      storeVersion: record.store?.version ?? null,
    });
    progress(
      `${side} (${input.ref}) run ${run}/${runs}: ${record.verdict}${record.verdict === expected ? '' : ` (expected ${expected})`}`,
    );
    if (record.verdict !== expected) {
      played.broke =
        record.verdict === 'INCONCLUSIVE'
          ? `run ${run} was INCONCLUSIVE, so it proved nothing: ${firstLine(record.explanation)}`
          : `run ${run} gave ${record.verdict}, expected ${expected}: ${firstLine(record.explanation)}`;
      return played;
    }
  }
  played.held = true;
  return played;
}

function strip(side: PlayedSide): ProofSide {
  const { path: _path, params: _params, storeKind: _kind, ...rest } = side;
  return rest;
}

function explain(before: PlayedSide, after: PlayedSide, sameStore: boolean, versions: Array<string | null>): string {
  if (!before.held) return `Not a proof: the before side (${before.ref}) must FAIL on every run, and ${before.broke}.`;
  if (!after.held) return `Not a proof: the after side (${after.ref}) must PASS on every run, and ${after.broke}.`;
  if (!sameStore) return `Not a proof: the runs used different store versions (${versions.join(', ')}).`;
  return `Proof: every one of ${before.runs.length} runs FAILed before (${before.ref}) and every one of ${after.runs.length} PASSed after (${after.ref}), with the same parameters and store version.`;
}

function proofMarkdown(proof: Proof): string {
  const side = (s: ProofSide) => [
    `## ${s.side}: ${s.ref} — expected ${s.expected} on every run: ${s.held ? 'held' : '**broken**'}`,
    '',
    `**Commit:** ${s.commit ?? 'not in git'}${s.dirty ? ' (**dirty**: the target or a file it imports has uncommitted changes)' : ''}  `,
    `**Target:** \`${s.target.path}\` sha256 \`${s.target.sha256}\`  `,
    ...(s.helpers.length
      ? ['**Files it imports:**', '', ...s.helpers.map((h) => `- \`${h.path}\` sha256 \`${h.sha256}\``), '']
      : ['**Files it imports:** none (local)', '']),
    ...(s.broke ? [`**Broke the proof:** ${s.broke}`, ''] : []),
    '| run | verdict | detail | evidence |',
    '|---|---|---|---|',
    ...s.runs.map(
      (r) =>
        `| ${r.run} | ${r.verdict} | ${r.detail.replace(/\|/g, '\\|')} | [${r.evidence}](${r.evidence}/summary.md) |`,
    ),
    '',
  ];
  return [
    `# ${proof.oracle} proof ${proof.valid ? 'VALID' : 'NOT VALID'}`,
    '',
    proof.explanation,
    '',
    `**Parameters:** ${
      Object.entries(proof.params)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ') || 'defaults'
    }  `,
    `**Store:** ${proof.store.kind} ${proof.store.version ?? '(not started)'}  `,
    `**Runs per side:** ${proof.runsPerSide}`,
    '',
    ...side(proof.before),
    ...side(proof.after),
  ].join('\n');
}
