/**
 * The ZooKeeper requests oracles hold at the wire, as src/wire/zk-framer.ts names them: a release
 * (a delete of the lock node or one of its children, a multi that deletes one, or closeSession,
 * which deletes every ephemeral node of the session), and a renewal (a ping: a session lives as
 * long as the server keeps hearing from it, and an idle client's only traffic is its ping).
 */
import type { WireCommand } from '../../wire/command.ts';
import type { CommandPattern } from '../../wire/command.ts';

/** Whether `path` is the lock node `lock` or a node under it (a queued child). */
export const underLock = (path: string, lock: string): boolean =>
  path === lock || path.startsWith(lock === '/' ? '/' : `${lock}/`);

const namesLock = (lock: string) => ({
  what: `a node at or under ${lock}`,
  test: (args: readonly string[]) => args.some((path) => underLock(path, lock)),
});

export function zkDelete(lock: string): CommandPattern[] {
  return [
    { command: ['delete', 'deleteContainer'], args: namesLock(lock) },
    { command: 'multi', text: /\bdelete \//, args: namesLock(lock) },
    { command: 'closeSession' },
  ];
}

export const ZK_RENEWAL: readonly CommandPattern[] = [{ command: 'ping' }];

/** Where a create takes a lock: a sequential child's parent (the recipe's lock node), or the node itself. */
export function zkLockLocations(command: WireCommand): string[] {
  if (!/^(create|create2|createTTL)$/.test(command.name)) return [];
  const path = command.args[0];
  if (!path) return [];
  if (!/sequential/.test(command.text)) return [path];
  const parent = path.slice(0, path.lastIndexOf('/'));
  return [parent === '' ? '/' : parent];
}
