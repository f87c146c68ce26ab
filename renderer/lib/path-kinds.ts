import type { PathKind } from '../../shared/ipc/channels/files';

/** The mark a path in the photos list carries when it cannot be used as it is (null: a photo or a folder). */
export const PATH_PROBLEMS: Partial<Record<PathKind, string>> = {
  missing: 'not found',
  'not-photo': 'not a photo',
  unreadable: 'cannot be read',
};

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * What the added paths are, as the batch slot says it: "2 photos and 1 folder added below — …", with the paths that
 * cannot be used counted apart. Paths main has not judged yet count as "items", never as folders (a typed file name
 * that does not exist is not a folder).
 */
export function describeAdded(paths: readonly string[], kinds: Readonly<Record<string, PathKind>>): string {
  let photos = 0, folders = 0, unusable = 0, unknown = 0;
  for (const path of paths) {
    const kind = kinds[path];
    if (kind === 'photo') photos++;
    else if (kind === 'folder') folders++;
    else if (kind) unusable++;
    else unknown++;
  }
  const parts = [photos && plural(photos, 'photo', 'photos'), folders && plural(folders, 'folder', 'folders'), unknown && plural(unknown, 'item', 'items')]
    .filter((p): p is string => Boolean(p));
  const bad = unusable > 0 ? `${plural(unusable, 'path', 'paths')} cannot be used (marked below).` : '';
  if (parts.length === 0) return bad;
  const usable = parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
  return `${usable} added below — each photo becomes one result.${bad && ` ${bad}`}`;
}
