import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeHeicOffThread } from '../../../main/core/images/heic-off-thread';

// The screen's HEIC decoder thread: one job at a time, in order; a job that fails fails alone — the next one (on the
// same worker, or a new one after a crash) decodes as if nothing happened.
const TINY = join(__dirname, '..', '..', 'fixtures', 'images', 'tiny.heic');

describe('the HEIC decoder thread', () => {
  it('decodes in order; a damaged file is refused alone and the photos queued behind it still decode', { timeout: 60_000 }, async () => {
    const good = await readFile(TINY);
    const damaged = Buffer.concat([good.subarray(0, 64), Buffer.alloc(2048, 7)]);
    const [first, broken, second] = await Promise.allSettled([decodeHeicOffThread(good), decodeHeicOffThread(damaged), decodeHeicOffThread(good)]);
    expect(first.status).toBe('fulfilled');
    expect(broken.status).toBe('rejected');
    expect(second.status).toBe('fulfilled');
    const image = (first as PromiseFulfilledResult<Awaited<ReturnType<typeof decodeHeicOffThread>>>).value;
    expect(image.width * image.height * 4).toBe(image.data.byteLength);
    expect((second as typeof first & { status: 'fulfilled' }).value.width).toBe(image.width);
  });
});
