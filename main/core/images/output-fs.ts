import { chmod, link, mkdir, open, rename, stat, statfs, unlink } from 'node:fs/promises';

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
  chmod: typeof chmod;
}

const real: OutputFs = { open, mkdir, link, rename, unlink, stat, statfs, chmod };

/** The calls in use; tests replace members and call restoreOutputFs() afterwards. */
export const outputFs: OutputFs = { ...real };

export function restoreOutputFs(): void {
  Object.assign(outputFs, real);
}

type Handle = Awaited<ReturnType<typeof open>>;

/**
 * Writes all of `chunk`. write(2) may write fewer bytes than asked — near a full disk it does, and only the next write
 * fails with ENOSPC — and FileHandle.write passes that on: a caller that wrote once per chunk saved a truncated JPEG
 * under its final name with no error at all (a 400 KB tmpfs did). A write that makes no progress is ENOSPC.
 */
export async function writeAll(handle: Handle, chunk: Uint8Array): Promise<void> {
  for (let offset = 0; offset < chunk.byteLength;) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.byteLength - offset);
    if (bytesWritten <= 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    offset += bytesWritten;
  }
}

/** The errno of a file-system error (undefined for anything else). */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}
