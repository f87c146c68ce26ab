import { link, mkdir, open, rename, stat, statfs, unlink } from 'node:fs/promises';

// The file-system calls that write results, sidecars and the result cache, behind one object so a test can make any
// of them fail with a chosen errno (ENOSPC half way through a write, EROFS on a rename…) without a real full disk.
// Production never replaces them. Reads (sharp's decode, readdir of a sweep) stay plain `node:fs`.

export interface OutputFs {
  open: typeof open;
  mkdir: typeof mkdir;
  link: typeof link;
  rename: typeof rename;
  unlink: typeof unlink;
  stat: typeof stat;
  statfs: typeof statfs;
}

const real: OutputFs = { open, mkdir, link, rename, unlink, stat, statfs };

/** The calls in use; tests replace members and call restoreOutputFs() afterwards. */
export const outputFs: OutputFs = { ...real };

export function restoreOutputFs(): void {
  Object.assign(outputFs, real);
}

/** The errno of a file-system error (undefined for anything else). */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}
