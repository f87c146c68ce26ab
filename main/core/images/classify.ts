import { basename, extname } from 'node:path';

// Decides from the name alone whether a file is worth reading as an input image. Content problems (corrupt,
// mislabelled, too large) are found later by the encoder; this is the cheap first filter for scans and hot folders.

export const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set([
  '.jpg', '.jpeg', '.jpe', '.jfif', '.png', '.webp', '.tif', '.tiff', '.gif', '.avif', '.heic', '.heif', '.hif',
]);

const PARTIAL_EXTENSIONS: ReadonlySet<string> = new Set(['.part', '.partial', '.crdownload', '.download', '.tmp', '.temp', '.opdownload']);
const SYSTEM_FILES: ReadonlySet<string> = new Set(['thumbs.db', 'desktop.ini', '.ds_store', 'icon\r']);

export type InputClassification = { ok: true } | { ok: false; reason: string };

export function classifyInputFile(path: string): InputClassification {
  const name = basename(path);
  const lower = name.toLowerCase();
  if (SYSTEM_FILES.has(lower)) return { ok: false, reason: 'system file' };
  if (lower.startsWith('~$')) return { ok: false, reason: 'temporary file of an application (~$…)' };
  if (lower.startsWith('.batchroom-')) return { ok: false, reason: 'Batchroom temporary file' };
  if (lower.startsWith('._')) return { ok: false, reason: 'macOS resource fork (._ file)' };
  if (lower.startsWith('.')) return { ok: false, reason: 'hidden file' };
  const ext = extname(lower);
  if (PARTIAL_EXTENSIONS.has(ext)) return { ok: false, reason: `partial download or temporary file (${ext})` };
  if (!ext) return { ok: false, reason: 'no file extension: not recognised as an image' };
  if (!IMAGE_EXTENSIONS.has(ext)) return { ok: false, reason: `not a supported image type (${ext})` };
  return { ok: true };
}

/** Folders a scan never descends into. */
export function isSkippedFolder(name: string): boolean {
  return name.startsWith('.') || name === '__MACOSX' || name === '$RECYCLE.BIN' || name === 'System Volume Information';
}
