/**
 * Which language a target is written in (its file's extension, or `--lang` to force one), and for
 * Java and Go, the built holder's command line (java-holder.ts, go-holder.ts). Node and Python
 * targets are started by the Node holder and the Python SDK (src/holder/).
 */
import { extname } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { goHolder } from './go-holder.ts';
import { javaHolder, type HolderLaunch } from './java-holder.ts';

export const LANGUAGES = ['node', 'python', 'java', 'go'] as const;
export type TargetLanguage = (typeof LANGUAGES)[number];

const BY_EXTENSION: Record<string, TargetLanguage> = {
  '.ts': 'node',
  '.mts': 'node',
  '.js': 'node',
  '.mjs': 'node',
  '.py': 'python',
  '.java': 'java',
  '.go': 'go',
};

/** The target's language: `forced` (--lang) when given, else by the file's extension. */
export function targetLanguage(target: string, forced?: string): TargetLanguage {
  if (forced !== undefined) {
    if ((LANGUAGES as readonly string[]).includes(forced)) return forced as TargetLanguage;
    throw new UsageError(`--lang ${forced} is not a language lock-oracles runs: use one of ${LANGUAGES.join(', ')}`);
  }
  const language = BY_EXTENSION[extname(target)];
  if (language) return language;
  throw new UsageError(
    `cannot tell ${target}'s language from its extension: name it .ts/.js, .py, .java or .go, or pass --lang ${LANGUAGES.join('|')}`,
  );
}

/** A Java or Go target's holder, built (or found cached) and ready to spawn. */
export async function compiledHolder(
  language: 'java' | 'go',
  target: string,
  options: { classpath?: string[] } = {},
): Promise<HolderLaunch> {
  return language === 'java' ? javaHolder(target, options.classpath) : goHolder(target);
}
