import type { PathKind } from '../../shared/ipc/channels/files';
import { tr } from '../i18n/active';

/** The mark a path in the photos list carries when it cannot be used as it is (null: a photo or a folder). */
export const PATH_PROBLEMS: Partial<Record<PathKind, string>> = Object.defineProperties({}, {
  // Getters: read in the page's language when shown.
  missing: { enumerable: true, get: () => tr('lib', 'path.missing') },
  'not-photo': { enumerable: true, get: () => tr('lib', 'path.notPhoto') },
  unreadable: { enumerable: true, get: () => tr('lib', 'path.unreadable') },
});

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
  const parts = [photos && tr('lib', 'added.photos', { count: photos }), folders && tr('lib', 'added.folders', { count: folders }),
    unknown && tr('lib', 'added.items', { count: unknown })].filter((p): p is string => Boolean(p));
  const bad = unusable > 0 ? tr('lib', 'added.unusable', { count: unusable }) : '';
  if (parts.length === 0) return bad;
  const [first, second, third] = parts as [string, string?, string?];
  const what = third ? tr('lib', 'added.three', { first, second: second!, third }) : second ? tr('lib', 'added.two', { first, second }) : first;
  return `${tr('lib', 'added.usable', { what })}${bad && ` ${bad}`}`;
}
