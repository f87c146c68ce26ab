import type { ReleaseNoteInfo } from 'builder-util-runtime';

/**
 * The person's words for a download electron-updater refused. Either way the file is already gone: AppUpdater's
 * executeDownload deletes a download that fails its sha512 (or, on Windows, its signature) check before anything
 * can install it.
 */
export function downloadFailureMessage(version: string, error: unknown): string {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'ERR_CHECKSUM_MISMATCH') {
    return `The download of version ${version} did not match the release's checksum (sha512), so it was discarded and nothing was installed. It is tried again at the next check.`;
  }
  if (code === 'ERR_UPDATER_INVALID_SIGNATURE') {
    return `The download of version ${version} is not signed by Batchroom's publisher, so it was discarded and nothing was installed.`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `The download of version ${version} failed (${message.slice(0, 200)}); nothing was installed. It is tried again at the next check.`;
}

/** Release notes as plain text: a generic feed has a string, a GitHub feed HTML or a list of notes per version. */
export function releaseNotesText(notes: string | ReleaseNoteInfo[] | null | undefined): string | null {
  if (notes == null) return null;
  const text = typeof notes === 'string' ? notes : notes.map((n) => `${n.version}\n${n.note ?? ''}`).join('\n\n');
  const plain = text
    .replace(/<br\s*\/?>|<\/p>|<\/li>/gi, '\n')
    .replace(/<li[^>]*>/gi, '• ')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, '\'').replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return plain.length > 0 ? plain.slice(0, 20_000) : null;
}
