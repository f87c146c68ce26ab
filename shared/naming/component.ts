// One path component that every platform accepts: NFC, no character Windows or macOS refuses, no reserved device
// name, no trailing dot or space, and at most 255 bytes of UTF-8 (the limit of ext4, APFS, NTFS and SMB shares).

export const MAX_COMPONENT_BYTES = 255;
/**
 * A result's own name stops 5 bytes short of the limit: its JSON sidecar is `<result>.json`, and a name that fits
 * only without that suffix left the sidecar unwritten (ENAMETOOLONG; before the temp clean-up, a `.part` behind).
 */
export const MAX_RESULT_NAME_BYTES = MAX_COMPONENT_BYTES - '.json'.length;

// eslint-disable-next-line no-control-regex
const INVALID_CHARACTERS = /[<>:"/\\|?*\u0000-\u001f\u007f]/g;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;

/** Bytes `text` takes in UTF-8 (pure: no TextEncoder, which shared/ cannot assume). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** User-perceived characters, so a cut never splits an accent from its letter or a flag or family emoji. */
export function characters(text: string): string[] {
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** The longest prefix of `text` (whole characters) that fits `maxBytes`. */
export function cutToBytes(text: string, maxBytes: number): string {
  if (utf8Length(text) <= maxBytes) return text;
  let out = '';
  let used = 0;
  for (const ch of characters(text)) {
    const size = utf8Length(ch);
    if (used + size > maxBytes) break;
    out += ch;
    used += size;
  }
  return out;
}

/** NFC with every character invalid on Windows or macOS replaced by `_`. Length is not touched here. */
export function replaceInvalid(text: string): string {
  return text.normalize('NFC').replace(INVALID_CHARACTERS, '_');
}

/**
 * Final touches on an assembled component: no trailing dot or space (Windows drops them, so two names would meet),
 * no reserved device name as the part before the first dot (`CON.jpg` cannot be opened on Windows), never empty.
 */
export function finishComponent(name: string): string {
  let out = name.replace(/[. ]+$/u, '');
  if (out === '') out = 'result';
  const beforeDot = out.split('.')[0]!.replace(/ +$/u, '');
  if (WINDOWS_RESERVED.test(beforeDot)) out = `_${out}`;
  return out;
}

/** A folder name (from the mirrored input tree) made safe the same way, fitted to 255 bytes. */
export function safeFolderName(name: string): string {
  return finishComponent(cutToBytes(replaceInvalid(name), MAX_COMPONENT_BYTES - 1));
}

/** A mirrored sub-folder path (either separator) made safe component by component, '/'-separated, '' for the root. */
export function safeRelDir(relDir: string): string {
  return relDir.split(/[\\/]/).filter((c) => c !== '' && c !== '.').map(safeFolderName).join('/');
}
