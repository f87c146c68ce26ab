import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

const CHUNK_BYTES = 1 << 20;
/** Never smaller: a file that grows while it is read (a 0-byte placeholder being filled) was read a byte a call. */
const MIN_CHUNK_BYTES = 64 << 10;

/**
 * sha256 of a file's content, read in chunks of at most 1 MB so a 200 MB TIFF never sits in memory — and no bigger
 * than the file (down to 64 KB): a stream's fixed 1 MB buffer per file made hashing thousands of small photos mostly garbage.
 */
export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const chunk = Buffer.allocUnsafe(Math.max(MIN_CHUNK_BYTES, Math.min(CHUNK_BYTES, size)));
    for (let position = 0; ;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) break;
      hash.update(chunk.subarray(0, bytesRead));
      position += bytesRead;
    }
    return hash.digest('hex');
  } finally {
    await handle.close();
  }
}
