// Which file an item is named after, and that file's name, for local paths (either separator) and URLs alike.

/** The last path segment: `/a/b/IMG 1.jpg` → `IMG 1.jpg`, `C:\x\y.png` → `y.png`, `https://h/p/z.jpg?sig=…` → `z.jpg`. */
export function fileNameOf(sourcePath: string): string {
  const withoutQuery = /^https?:\/\//i.test(sourcePath) ? sourcePath.replace(/[?#].*$/s, '') : sourcePath;
  const parts = withoutQuery.split(/[\\/]/);
  let name = parts.pop() ?? '';
  while (name === '' && parts.length > 0) name = parts.pop() ?? '';
  if (/^https?:\/\//i.test(sourcePath)) {
    try { name = decodeURIComponent(name); } catch { /* keep it encoded */ }
  }
  return name;
}

/** File name without its extension (`IMG_2041.JPG` → `IMG_2041`; a leading-dot name keeps its dot). */
export function stemOf(sourcePath: string): string {
  const name = fileNameOf(sourcePath);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * The file an item is named after: a one-image item's file; a multi-image item's file in the workflow's first image
 * field (`fieldOrder`, the workflow's own order), falling back to the alphabetically first field.
 */
export function namingSourceOf(sources: Readonly<Record<string, string>>, fieldOrder: readonly string[] = []): string {
  for (const field of fieldOrder) {
    const source = sources[field];
    if (source) return source;
  }
  const first = Object.keys(sources).sort()[0];
  return first === undefined ? '' : sources[first]!;
}
