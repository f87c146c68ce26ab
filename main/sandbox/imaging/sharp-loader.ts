import type SharpModule from 'sharp';

// The sandbox lists its catalog without sharp: libvips with its helpers (semver, detect-libc, colour) takes
// ≈ 120 ms to load, which `batchroom ui` in sandbox mode used to spend before the first catalog could be answered.
// It loads with the first image work — a decode or a workflow run, which await loadSharp() before anything else.

type Sharp = typeof SharpModule;

let loaded: Sharp | null = null;
let loading: Promise<Sharp> | null = null;

export function loadSharp(): Promise<Sharp> {
  loading ??= import('sharp').then((module) => (loaded = module.default));
  return loading;
}

/** sharp, for the synchronous pipeline builders: every way to them (a run, an input decode) awaited loadSharp() first. */
export function sharpLoaded(): Sharp {
  if (!loaded) throw new Error('sandbox imaging used before loadSharp() resolved');
  return loaded;
}

