/** `--report-dir`, checked writable before anything starts: a verdict must never be lost for want of a directory. */
import { resolve } from 'node:path';
import { UsageError } from '../../core/errors.ts';
import { checkWritableDir } from '../../report/safe-write.ts';

export function writableReportDir(dir: string): string {
  const path = resolve(dir);
  try {
    checkWritableDir(path);
  } catch (error) {
    throw new UsageError(`--report-dir: ${(error as Error).message}. Give a writable directory, or --no-report.`);
  }
  return path;
}
