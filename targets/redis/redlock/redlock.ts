/**
 * redlock 5.0.0-beta.2, typed. Its package.json "exports" map points TypeScript (NodeNext) at
 * dist/esm/index.js, which has no .d.ts beside it, so the package's own dist/index.d.ts is not
 * found. This module imports the runtime values and gives them the package's own declarations.
 */
// @ts-expect-error TS7016: the runtime module has no types where NodeNext looks; they are attached below.
import * as runtime from 'redlock';
import type * as Declared from '../../../node_modules/redlock/dist/index.js';

const typed = runtime as typeof Declared;

export const Redlock = typed.default;
export type Redlock = Declared.default;
export const Lock = typed.Lock;
export type Lock = Declared.Lock;
export const ExecutionError = typed.ExecutionError;
export type RedlockAbortSignal = Declared.RedlockAbortSignal;
