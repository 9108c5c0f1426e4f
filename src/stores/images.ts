/**
 * The container image of each store, pinned in one place: docker/images.json (scripts/
 * container-engine.sh reads the same file). `local` is built on this machine from Debian's own
 * binaries, with no registry; `official` is the upstream image, used where it has been pulled.
 * LOCK_ORACLES_<KIND>_IMAGE names another image.
 */
import { readFileSync } from 'node:fs';
import type { StoreKind } from './types.ts';

export interface ImagePins {
  local: string;
  official: string;
}

const pins = JSON.parse(readFileSync(new URL('../../docker/images.json', import.meta.url), 'utf8')) as Record<
  StoreKind,
  ImagePins
>;

/** The images to try for `kind`, in order: the override alone, else the local build, then the official image. */
export function imageCandidates(kind: StoreKind, env: NodeJS.ProcessEnv = process.env): string[] {
  const override = env[`LOCK_ORACLES_${kind.toUpperCase()}_IMAGE`];
  return override ? [override] : [pins[kind].local, pins[kind].official];
}

export function imagePins(kind: StoreKind): ImagePins {
  return pins[kind];
}
