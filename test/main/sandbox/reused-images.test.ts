import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { sandboxApi, startTestSandbox, tinyImageDataUrl, waitForExecution, type LooseJson } from '../../helpers/sandbox';

// The bench's cost mode (main/sandbox/reused-images.ts): one decode and one edit per distinct input size, the same
// bytes served for every later photo of that size; the default still edits every photo. Issue 34 #6.

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** The result bytes of one color-grade execution of `photo`, with its charge. */
async function resultOf(box: RunningSandbox, photo: string): Promise<{ bytes: Buffer; charged: number }> {
  const api = sandboxApi(box);
  const accepted = await api('/workflows/color-grade/execute', { body: { images: { photo }, texts: { look: 'warm' } } });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
  const done: LooseJson = await waitForExecution(box, accepted.body.executionId);
  expect(done.status).toBe('completed');
  const response = await fetch(done.resultUrls[0]);
  expect(response.status).toBe(200);
  return { bytes: Buffer.from(await response.arrayBuffer()), charged: done.creditsCharged };
}

async function results(options: Parameters<typeof startTestSandbox>[0]) {
  sandbox = await startTestSandbox({ executionDurationMs: 50, credits: 100, ...options });
  const box = sandbox;
  const red = await resultOf(box, await tinyImageDataUrl({ width: 80, height: 60, colour: '#cc2222' }));
  const blue = await resultOf(box, await tinyImageDataUrl({ width: 80, height: 60, colour: '#2244cc' }));
  const other = await resultOf(box, await tinyImageDataUrl({ width: 60, height: 80, colour: '#2244cc' }));
  return { red, blue, other };
}

describe('sandbox imageWork', () => {
  it("'reused' serves the first same-size photo's result for a later one, edits each new size, and still charges each", async () => {
    const { red, blue, other } = await results({ imageWork: 'reused' });
    expect(blue.bytes.equals(red.bytes)).toBe(true);
    expect(other.bytes.equals(red.bytes)).toBe(false);
    expect([red.charged, blue.charged, other.charged]).toEqual([1, 1, 1]);
  });

  it('by default edits every photo (two colours, two results)', async () => {
    const { red, blue } = await results({});
    expect(blue.bytes.equals(red.bytes)).toBe(false);
  });

  it('refuses an unknown BATCHROOM_SANDBOX_IMAGE_WORK', async () => {
    const { imageWorkFromEnv } = await import('../../../main/sandbox/reused-images');
    expect(imageWorkFromEnv({ BATCHROOM_SANDBOX_IMAGE_WORK: 'reused' })).toBe('reused');
    expect(imageWorkFromEnv({})).toBeUndefined();
    expect(() => imageWorkFromEnv({ BATCHROOM_SANDBOX_IMAGE_WORK: 'cheap' })).toThrow(RangeError);
  });
});
