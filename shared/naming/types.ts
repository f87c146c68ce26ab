import type { CollisionPolicy } from '../engine/model';

/** One item to name: a photo (or a multi-image set, named after its first image field's file). */
export interface NamingItem {
  /** Caller's id (the item id), to find the item's names in the plan. */
  key: string;
  /** The file the item is named after ({name}); also the order in which collisions are settled (sorted). */
  sourcePath: string;
  /** Sub-folder under the output folder ('' at its root), '/'-separated. */
  relDir: string;
  /** 1-based position in the batch ({index}). */
  index: number;
  /** One entry per result: its extension (with the dot) and the service's label for it, if any. */
  outputs: readonly NamingOutput[];
  /** Per-item token values: `execution`, and any token whose value only this photo knows. */
  tokens?: Readonly<Record<string, string | undefined>>;
}

export interface NamingOutput {
  ext: string;
  /** Name of this result given by the service (a look name), used instead of `_n` for multi-output results. */
  label?: string | null;
}

export interface NamingOptions {
  template: string;
  workflow: string;
  /** Items in the batch, for the width of {index}. */
  total: number;
  /** The batch's creation time ({date}, {time}), local time. */
  at: Date;
  policy: CollisionPolicy;
  /** Names that must never be written over whatever the policy (the batch's own originals), as relative paths. */
  protectedNames?: Iterable<string>;
}

export type PlannedAction = 'write' | 'overwrite' | 'skip';

export interface PlannedOutput {
  /** Relative to the output folder, '/'-separated: `sub/IMG_2041_color-grade (2).jpg`. */
  relPath: string;
  fileName: string;
  /** write: a free name; overwrite: replaces an existing file (policy overwrite); skip: exists, policy skip. */
  action: PlannedAction;
  /** Why the name differs from the template's: it met a file already there, or another result of this batch. */
  collidedWith: 'existing' | 'batch' | null;
}

export interface PlannedItem {
  key: string;
  outputs: PlannedOutput[];
}
