import { hasImageExtension } from '../../shared/media/input-policy';
import { currentHost } from '../bridge/host';
import { tr } from '../i18n/active';

// Dropped files become local paths through the host: Electron knows each File's real path (folders included); the
// browser host uploads files and answers staged paths, so there the renderer expands dropped folders itself.

interface EntryLike {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?(ok: (f: File) => void, fail: (e: unknown) => void): void;
  createReader?(): { readEntries(ok: (entries: EntryLike[]) => void, fail: (e: unknown) => void): void };
}

async function readDirectory(entry: EntryLike, recursive: boolean, out: File[]): Promise<void> {
  const reader = entry.createReader?.();
  if (!reader) return;
  // readEntries answers in chunks (100 in Chromium): read until it answers nothing.
  for (;;) {
    const chunk = await new Promise<EntryLike[]>((ok, fail) => reader.readEntries(ok, fail));
    if (chunk.length === 0) break;
    for (const child of chunk) {
      if (child.isFile && hasImageExtension(child.name) && child.file) out.push(await new Promise<File>((ok, fail) => child.file!(ok, fail)));
      else if (child.isDirectory && recursive) await readDirectory(child, recursive, out);
    }
  }
}

/** The files (and, where the host understands them, folders) a drop carries. */
export async function filesFromDrop(dataTransfer: DataTransfer, recursive: boolean, hostReadsFolders: boolean): Promise<File[]> {
  const items = [...(dataTransfer.items ?? [])].filter((i) => i.kind === 'file');
  const entries = items.map((i) => (typeof i.webkitGetAsEntry === 'function' ? (i.webkitGetAsEntry() as EntryLike | null) : null));
  const files = [...dataTransfer.files];
  if (hostReadsFolders || entries.every((e) => !e?.isDirectory)) return files;
  const out: File[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (entry?.isDirectory) await readDirectory(entry, recursive, out);
    else if (files[i]) out.push(files[i]!);
  }
  return out;
}

/** Paths for dropped or picked files, or an explanation when this host cannot provide them. */
export async function pathsFromFiles(files: File[]): Promise<{ paths: string[] } | { error: string }> {
  const host = currentHost();
  if (!host) return { error: tr('lib', 'drop.cannotRead') };
  if (files.length === 0) return { paths: [] };
  try {
    return { paths: await host.pathsForFiles(files) };
  } catch (error) {
    return { error: tr('lib', 'drop.failed', { reason: error instanceof Error ? error.message : String(error) }) };
  }
}
