/**
 * The runtimes a store can be started by (`--runtime`, src/families/start-store.ts says what each
 * does): a constant of its own so the CLI's option table names them without loading the store code.
 */
export const RUNTIME_CHOICES = ['local', 'container', 'auto'] as const;
export type RuntimeChoice = (typeof RUNTIME_CHOICES)[number];
