/** A target's path as the evidence and the errors show it: relative to the repository when inside it. */
import { relative } from 'node:path';
import { REPO_ROOT } from '../registry.ts';

export function displayPath(path: string): string {
  const fromRepo = relative(REPO_ROOT, path);
  return fromRepo.startsWith('..') ? path : fromRepo;
}
