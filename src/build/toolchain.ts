/**
 * A language's toolchain for holders that are not Node (javac and java, go): found on PATH, or
 * refused before anything starts with the install line for it (a UsageError, exit 2). The real
 * path and its size and mtime go into the build cache's key, so a new JDK or Go rebuilds.
 */
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { UsageError } from '../core/errors.ts';

export interface Tool {
  /** The executable's real path. */
  path: string;
  /** "path size mtime": changes when the toolchain is upgraded. */
  stamp: string;
}

/** The executable `name` on PATH, or a UsageError naming the Debian package that installs it. */
export function requireTool(name: string, language: string, aptPackage: string): Tool {
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      const path = realpathSync(candidate);
      const stat = statSync(path);
      if (stat.isFile()) return { path, stamp: `${path} ${stat.size} ${stat.mtimeMs}` };
    } catch {
      /* not in this PATH directory */
    }
  }
  throw new UsageError(
    `a ${language} target needs \`${name}\`, which is not on PATH.\n  To fix: sudo apt-get install ${aptPackage} (or put ${name} on PATH)`,
  );
}
