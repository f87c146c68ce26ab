import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** sha256 of a file's content, streamed so a 200 MB TIFF never sits in memory. */
export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
