/** Whether node loads a file as CommonJS: .cjs, or .js / no extension under a package.json without "type": "module". */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const packageTypes = new Map<string, string | undefined>();

export function isCommonJs(path: string): boolean {
  if (path.endsWith('.cjs')) return true;
  if (!/(\.js|\/[^./]+)$/.test(path)) return false;
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    if (!packageTypes.has(dir)) {
      const manifest = join(dir, 'package.json');
      packageTypes.set(
        dir,
        existsSync(manifest)
          ? ((JSON.parse(readFileSync(manifest, 'utf8')) as { type?: string }).type ?? 'commonjs')
          : undefined,
      );
    }
    const type = packageTypes.get(dir);
    if (type !== undefined) return type !== 'module';
    if (dirname(dir) === dir) return true;
  }
}
