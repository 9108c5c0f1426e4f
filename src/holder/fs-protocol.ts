/**
 * The messages of a holder's filesystem boundaries (src/holder/fs-preload.ts in the holder,
 * fs-boundaries.ts in the harness): one JSON line per call phase over a unix socket; one that
 * waits (a hold is armed on the holder) is answered by one line once the harness lets the call
 * (or its result) go on.
 */

/** The calls reported as boundaries, by the name they have in node:fs. */
export const FS_OPS = [
  'open',
  'mkdir',
  'rmdir',
  'rm',
  'unlink',
  'rename',
  'link',
  'stat',
  'lstat',
  'utimes',
  'readFile',
  'writeFile',
] as const;
/** Calls reported in their sync form only: existsSync (its callback form, fs.exists, is deprecated and has no error argument). */
export const FS_SYNC_ONLY_OPS = ['exists'] as const;
export type FsOp = (typeof FS_OPS)[number] | (typeof FS_SYNC_ONLY_OPS)[number];

/** callback: fs.mkdir(p, cb); promise: fs.promises.mkdir(p); sync: fs.mkdirSync(p). */
export type FsForm = 'callback' | 'promise' | 'sync';

/** From the holder: a call is about to run (`call`), or it ran (`result`: "ok" or its error code). */
export interface FsReport {
  id: number;
  op: FsOp;
  /** The path(s) it names, relative to env.dir ("V310.lock", "V310.lock/owner"; rename/link: "a -> b"). */
  path: string;
  form: FsForm;
  phase: 'call' | 'result';
  /** `open`/`writeFile` flags when given ("wx"). */
  flags?: string;
  result?: string;
  /** A result: the id of the call it is the result of. */
  of?: number;
  /**
   * A successful call that made or wrote what a path names (mkdir, open with a writing flag,
   * writeFile, rename or link onto it): that path, relative to env.dir, and its inode right after
   * the call, so the harness can tell whose call made the lock that is there (src/judging/ownership.ts).
   */
  made?: { path: string; ino: number };
  /** The holder waits for the harness's go before it goes on (only such a report can be held). */
  wait?: true;
}

/** From the harness: go on with report `id`. */
export interface FsGo {
  id: number;
}
