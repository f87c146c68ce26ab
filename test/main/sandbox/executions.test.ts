import sharp, { type Metadata } from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { ExecutionSchema } from '../../../shared/service/model';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { sandboxApi, startTestSandbox, tinyImageDataUrl, waitForExecution, type LooseJson } from '../../helpers/sandbox';

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function start(options: Parameters<typeof startTestSandbox>[0] = {}) {
  sandbox = await startTestSandbox(options);
  return { sandbox, api: sandboxApi(sandbox) };
}

async function download(url: string): Promise<{ status: number; type: string | null; meta?: Metadata; bytes: Buffer }> {
  const response = await fetch(url);
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, type: response.headers.get('content-type'), bytes, meta: response.ok ? await sharp(bytes).metadata() : undefined };
}

describe('execution lifecycle', () => {
  it('goes queued → running (progress rising in steps) → completed with downloadable results, charging once', async () => {
    // 2 s: the queued share (10%) is long enough for the first poll to see it even on a loaded machine.
    const { sandbox, api } = await start({ executionDurationMs: 2000, credits: 10 });
    const photo = await tinyImageDataUrl({ width: 80, height: 60 });
    const accepted = await api('/workflows/color-grade/execute', { body: { images: { photo }, texts: { look: 'warm' } } });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ workflowId: 'color-grade', status: 'queued', creditsCharged: 1 });
    expect(accepted.body.executionId).toMatch(/^exe_[0-9a-f]{20}$/);

    // The 202 is the first observation (queued); polls then see it queued or already running, then completed.
    const seen: { status: string; progress: number }[] = [{ status: accepted.body.status, progress: 0 }];
    let last: LooseJson;
    for (;;) {
      last = (await api(`/executions/${accepted.body.executionId}`)).body;
      expect(() => ExecutionSchema.parse(last)).not.toThrow();
      seen.push({ status: last.status, progress: last.progress });
      if (last.status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const statuses = [...new Set(seen.map((s) => s.status))];
    expect(statuses).toEqual(['queued', 'running', 'completed']);
    const progress = seen.map((s) => s.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(new Set(progress.filter((p) => p > 0 && p < 100)).size).toBeGreaterThanOrEqual(3);
    expect(progress.every((p) => p % 5 === 0)).toBe(true);
    expect(seen.filter((s) => s.status === 'queued').every((s) => s.progress === 0)).toBe(true);
    expect(last).toMatchObject({ progress: 100, creditsCharged: 1, creditsRefunded: 0 });
    expect(last.startedAt).toBeTypeOf('string');
    expect(last.finishedAt).toBeTypeOf('string');
    expect(Date.parse(last.resultsExpireAt)).toBeGreaterThan(Date.now());
    expect(last.resultUrls).toHaveLength(1);
    expect(last.resultUrls[0].startsWith(sandbox.url.replace('/api/v1', '/results/'))).toBe(true);

    const result = await download(last.resultUrls[0]);
    expect(result.status).toBe(200);
    expect(result.type).toBe('image/jpeg');
    expect(result.meta).toMatchObject({ format: 'jpeg', width: 1024, height: 768 });
    expect((await api('/balance')).body.apiCredits).toBe(9);
    expect(sandbox.stats()).toMatchObject({ executionsCreated: 1, creditsCharged: 1, creditsRefunded: 0, resultDownloads: 1 });
  });

  it('stays queued with progress 0 and no start time for the first tenth of the duration', async () => {
    const { api } = await start({ executionDurationMs: 60_000 });
    const photo = await tinyImageDataUrl();
    const { body } = await api('/workflows/color-grade/execute', { body: { images: { photo }, texts: { look: 'warm' } } });
    const { body: execution } = await api(`/executions/${body.executionId}`);
    expect(execution).toMatchObject({ status: 'queued', progress: 0, resultUrls: [] });
    expect(execution.startedAt).toBeUndefined();
    expect(execution.error).toBeUndefined();
  });

  it('answers status polls while an edit is still processing (edits run off the event loop)', async () => {
    // Duration 0: the execution completes the moment its edit finishes. A poll sent right after the 202 must be
    // answered while the heavy 2K edit is still on sharp's thread pool; a blocked event loop would answer it only
    // afterwards, with "completed".
    const { api } = await start({ executionDurationMs: 0 });
    const noisy = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 120, sigma: 40 } } })
      .jpeg().toBuffer();
    const { status, body } = await api('/workflows/film-effects/execute', {
      body: {
        images: { photo: `data:image/jpeg;base64,${noisy.toString('base64')}` },
        switchSelections: { effects: ['grain', 'vignette', 'highContrast', 'soften', 'sharpen'] },
        globalOverrides: { imageSize: '2K' },
      },
    });
    expect(status).toBe(202);
    const { body: during } = await api(`/executions/${body.executionId}`);
    expect(during.status).toBe('running');
    expect((await waitForExecution(sandbox!, body.executionId)).status).toBe('completed');
  });

  it('produces the same bytes for the same input (deterministic edits)', async () => {
    const { api } = await start({ executionDurationMs: 20 });
    const photo = await tinyImageDataUrl({ width: 40, height: 40, colour: '#884422' });
    const body = { images: { photo }, switchSelections: { effects: ['grain', 'vignette', 'highContrast'] } };
    const urls = [];
    for (let i = 0; i < 2; i++) {
      const { body: accepted } = await api('/workflows/film-effects/execute', { body });
      urls.push((await waitForExecution(sandbox!, accepted.executionId)).resultUrls[0]);
    }
    const [a, b] = await Promise.all(urls.map(download));
    expect(a!.bytes.equals(b!.bytes)).toBe(true);
    expect(urls[0]).not.toBe(urls[1]);
  });

  it('returns several results for look-variations, one per selected look, all different', async () => {
    const { api } = await start({ executionDurationMs: 20 });
    const photo = await tinyImageDataUrl({ width: 50, height: 30, colour: '#aa6633' });
    const { body: accepted } = await api('/workflows/look-variations/execute', {
      body: { images: { photo }, switchSelections: { looks: ['warm', 'cool', 'mono'] } },
    });
    const done = await waitForExecution(sandbox!, accepted.executionId);
    expect(done.resultUrls).toHaveLength(3);
    const files = await Promise.all(done.resultUrls.map(download));
    expect(new Set(files.map((f) => f.bytes.toString('base64'))).size).toBe(3);
  });

  it.each([
    ['color-grade', { texts: { look: 'mono' } }, { aspectRatio: '16:9', imageSize: '1K' }, [1024, 576]],
    ['color-grade', { texts: { look: 'cool' } }, { aspectRatio: '9:16', imageSize: '2K' }, [1152, 2048]],
    ['caption-watermark', { texts: { caption: 'Hello ✨ world' } }, { aspectRatio: '21:9' }, [1024, 439]],
    ['film-effects', {}, { aspectRatio: '3:4' }, [768, 1024]],
    ['auto-enhance', {}, {}, [1024, 683]],
    ['auto-enhance', {}, { imageSize: '2K' }, [2048, 1365]],
    ['product-backdrop', { texts: { background: 'transparent' } }, { aspectRatio: '1:1' }, [1024, 1024]],
    ['before-after', {}, { aspectRatio: '2:3' }, [683, 1024]],
  ] as const)('%s honours globalOverrides %j', async (workflow, extra, overrides, [width, height]) => {
    const { api } = await start({ executionDurationMs: 10 });
    const photo = await tinyImageDataUrl({ width: 60, height: 40 });
    const images = workflow === 'before-after' ? { before: photo, after: photo } : workflow === 'product-backdrop' ? { product: photo } : { photo };
    const { status, body } = await api(`/workflows/${workflow}/execute`, { body: { images, ...extra, globalOverrides: overrides } });
    expect(status, JSON.stringify(body)).toBe(202);
    const done = await waitForExecution(sandbox!, body.executionId);
    expect(done.status).toBe('completed');
    const file = await download(done.resultUrls[0]);
    expect([file.meta?.width, file.meta?.height]).toEqual([width, height]);
    if (workflow === 'product-backdrop') expect(file.meta).toMatchObject({ format: 'png', hasAlpha: true });
  });

  it('crops for crop workflows and pads for pad workflows', async () => {
    const { api } = await start({ executionDurationMs: 10 });
    // A wide red image forced to 1:1: cropping keeps red corners, padding adds black bars top and bottom.
    const photo = await tinyImageDataUrl({ width: 200, height: 50, colour: '#ff0000' });
    const corner = async (workflow: string, extra: object) => {
      const { body } = await api(`/workflows/${workflow}/execute`, { body: { images: { photo }, ...extra, globalOverrides: { aspectRatio: '1:1' } } });
      const done = await waitForExecution(sandbox!, body.executionId);
      const { bytes } = await download(done.resultUrls[0]);
      const { data } = await sharp(bytes).extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
      return [...data.subarray(0, 3)];
    };
    const cropped = await corner('auto-enhance', { switchSelections: { steps: ['sharpen'] } });
    expect(cropped[0]).toBeGreaterThan(200);
    const padded = await corner('caption-watermark', { texts: { caption: 'x', position: 'center' }, switchSelections: { style: [] } });
    expect(padded[0]).toBeLessThan(20);
  });

  it('hides executions from other keys (404) and answers 404 for unknown ids', async () => {
    const { api } = await start({ executionDurationMs: 10 });
    const photo = await tinyImageDataUrl();
    const { body } = await api('/workflows/color-grade/execute', { body: { images: { photo }, texts: { look: 'warm' } } });
    const other = await sandboxApi(sandbox!, 'sk_test_someoneelse99')(`/executions/${body.executionId}`);
    expect(other.status).toBe(404);
    expect(other.body.error).toMatchObject({ code: 'execution_not_found', executionId: body.executionId });
    expect((await api('/executions/exe_00000000000000000000')).status).toBe(404);
    expect(sandbox!.stats().executionsByKey).toEqual({ [`sk_test_…${sandbox!.apiKey.slice(-4)}`]: 1 });
  });

  it('expires result URLs: 410 after the TTL, 404 for a URL that never existed', async () => {
    const { api } = await start({ executionDurationMs: 10, resultTtlMs: 150 });
    const photo = await tinyImageDataUrl();
    const { body } = await api('/workflows/color-grade/execute', { body: { images: { photo }, texts: { look: 'warm' } } });
    const done = await waitForExecution(sandbox!, body.executionId);
    expect((await download(done.resultUrls[0])).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const expired = await fetch(done.resultUrls[0]);
    expect(expired.status).toBe(410);
    expect(((await expired.json()) as LooseJson).error.code).toBe('result_expired');
    const bogus = await fetch(done.resultUrls[0].replace(/\/results\/[0-9a-f]+\//, '/results/abcdef/'));
    expect(bogus.status).toBe(404);
    expect(((await bogus.json()) as LooseJson).error.code).toBe('result_not_found');
    // The execution itself still reports completed, with the (now expired) URLs.
    expect((await api(`/executions/${body.executionId}`)).body.status).toBe('completed');
  });

  it('expires the oldest results early when the stored bytes exceed the cap', async () => {
    const { api } = await start({ executionDurationMs: 10, limits: { maxStoredResultBytes: 1 } });
    const photo = await tinyImageDataUrl();
    const urls: string[] = [];
    for (const look of ['warm', 'cool']) {
      const { body } = await api('/workflows/color-grade/execute', { body: { images: { photo }, texts: { look } } });
      urls.push((await waitForExecution(sandbox!, body.executionId)).resultUrls[0]);
    }
    expect((await fetch(urls[0]!)).status).toBe(410);
    expect((await fetch(urls[1]!)).status).toBe(200);
  });

  it('serves result URLs without authentication, like signed URLs', async () => {
    const { api } = await start({ executionDurationMs: 10 });
    const photo = await tinyImageDataUrl();
    const { body } = await api('/workflows/color-grade/execute', { body: { images: { photo }, texts: { look: 'sepia' } } });
    const done = await waitForExecution(sandbox!, body.executionId);
    const response = await fetch(done.resultUrls[0], { headers: {} });
    expect(response.status).toBe(200);
  });
});
