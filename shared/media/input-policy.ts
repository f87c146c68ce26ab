// What Batchroom accepts as an input photo, decided from the name alone, in one place for every way in (the CLI,
// the app's drop and file dialog, hot folders). Content problems (corrupt, mislabelled, too large) are found later by
// the encoder. Pure: callers pass a file or folder name, never a path.

/**
 * Camera RAW formats. They are sent as their largest embedded JPEG preview (main/core/images/raw-preview.ts): every
 * camera writes one, and it is what the photographer saw on the camera, already developed.
 */
export const RAW_EXTENSIONS: readonly string[] = ['.cr2', '.cr3', '.nef', '.arw', '.dng', '.raf', '.orf', '.rw2'];

/** The extensions accepted as photos. Adding a format is a one-line change here. */
export const ACCEPTED_IMAGE_EXTENSIONS: readonly string[] = [
  '.jpg', '.jpeg', '.jpe', '.jfif', '.png', '.webp', '.tif', '.tiff', '.gif', '.avif', '.heic', '.heif', '.hif',
  ...RAW_EXTENSIONS,
];

const ACCEPTED: ReadonlySet<string> = new Set(ACCEPTED_IMAGE_EXTENSIONS);
const RAW: ReadonlySet<string> = new Set(RAW_EXTENSIONS);
const JPEG: ReadonlySet<string> = new Set(['.jpg', '.jpeg', '.jpe', '.jfif']);
const PARTIAL_EXTENSIONS: ReadonlySet<string> = new Set(['.part', '.partial', '.crdownload', '.download', '.tmp', '.temp', '.opdownload', '.!ut']);
const SYSTEM_FILES: ReadonlySet<string> = new Set(['thumbs.db', 'ehthumbs.db', 'desktop.ini', '.ds_store', 'icon\r']);
// Lower case: Windows writes `$Recycle.Bin` on NTFS and `$RECYCLE.BIN` on FAT/exFAT cards, and both are case-insensitive.
const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['__macosx', '$recycle.bin', 'system volume information']);

/** The lowercase extension of a name, with its dot ('' when there is none; a leading dot is not an extension). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/** True when a name ends in an accepted photo extension (used also to notice a folder named like a photo). */
export function hasImageExtension(name: string): boolean {
  return ACCEPTED.has(extensionOf(name));
}

/** True for a camera RAW file name (.cr2 .cr3 .nef .arw .dng .raf .orf .rw2, any case). */
export function isRawName(name: string): boolean {
  return RAW.has(extensionOf(name));
}

/** True for a JPEG file name: the half of a RAW+JPEG pair the camera developed itself. */
export function isJpegName(name: string): boolean {
  return JPEG.has(extensionOf(name));
}

/**
 * Files that are never photos: OS litter, hidden files, and the temporary names browsers, sync clients and Office
 * give a file while it is still being written. Hot folders ignore these without a word; scans report them.
 */
export function junkReason(name: string): string | null {
  const lower = name.toLowerCase();
  if (SYSTEM_FILES.has(lower)) return 'system file';
  if (lower.startsWith('~$')) return 'temporary file of an application (~$…)';
  if (lower.startsWith('.batchroom-')) return 'Batchroom temporary file';
  if (lower.startsWith('._')) return 'macOS resource fork (._ file)';
  if (lower.startsWith('.')) return 'hidden file';
  const ext = extensionOf(lower);
  if (PARTIAL_EXTENSIONS.has(ext)) return `partial download or temporary file (${ext})`;
  return null;
}

export type InputClassification = { ok: true } | { ok: false; reason: string };

/** Whether a file of this name is read as an input photo, and if not, why. */
export function classifyInputName(name: string): InputClassification {
  const junk = junkReason(name);
  if (junk) return { ok: false, reason: junk };
  const ext = extensionOf(name);
  if (!ext) return { ok: false, reason: 'no file extension: not recognised as an image' };
  if (!ACCEPTED.has(ext)) return { ok: false, reason: `not a supported image type (${ext})` };
  return { ok: true };
}

/** Folders a scan never descends into: hidden ones (.git, .Trash) and system litter. The reason, or null. */
export function skippedFolderReason(name: string): string | null {
  if (name.startsWith('.')) return 'hidden folder: not searched';
  if (SKIPPED_FOLDERS.has(name.toLowerCase())) return 'system folder: not searched';
  return null;
}
