import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// A file that fills after it was opened (a 0-byte placeholder a copy or a sync client is writing): its open handle
// still says 0 bytes when the chunk is sized. Simulated by an fstat that reports the size at creation, 0.
let reads = 0;
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    open: async (...args: Parameters<typeof real.open>) => {
      const handle = await real.open(...args);
      const stat = handle.stat.bind(handle);
      const read = handle.read.bind(handle) as (...a: unknown[]) => Promise<unknown>;
      Object.assign(handle, {
        stat: async (...a: Parameters<typeof stat>) => Object.assign(await stat(...a), { size: 0 }),
        read: (...a: unknown[]) => { reads++; return read(...a); },
      });
      return handle;
    },
  };
});

const { hashFile } = await import('../../../main/core/images/hash');

describe('hashFile of a file that grew after its size was read', () => {
  let dir: string;
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'batchroom-hash-')); reads = 0; });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('hashes all of it in a few reads, not one byte a read', async () => {
    const bytes = Buffer.alloc(48 * 1024, 7);
    const path = join(dir, 'filling.jpg');
    await writeFile(path, bytes);
    expect(await hashFile(path)).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(reads).toBeLessThanOrEqual(3);
  });
});
