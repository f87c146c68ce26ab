// Chains (issue 32 #3): what a chain step costs when it is sent the previous step's result URL, next to a fresh upload
// of the same result. A 24 MP photo goes through step 1 (Color Grade) in the sandbox; its result is saved as the
// engine saves an intermediate. Then, rounds alternating so a noisy machine colours both alike, step 2 (Film Effects)
// is sent that result (a) by URL, as the engine does (the execution asked for the result's current URL, the URL
// checked live: engine/chain-input.ts), and (b) as a fresh upload (the engine's own encoder, a base64 data URL).
// Prints the time from "step 1 done" to "step 2 accepted" and the request bytes of each, and the ratios measured in
// this run. Last line: one JSON object of metrics.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { encodeForUpload, toDataUrl } from '../main/core/images/encode';
import { liveChainResultUrl } from '../main/core/engine/chain-input';
import { startSandbox } from '../main/sandbox/index';

const ROUNDS = Number(process.env.BENCH_CHAIN_ROUNDS ?? '6');
const log = (line: string) => process.stdout.write(`${line}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'batchroom-bench-chain-'));
  const sandbox = await startSandbox({ executionDurationMs: 50, useEnv: false, seed: 1 });
  const auth = { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' };
  const api = async (path: string, body?: unknown) => {
    const response = await fetch(`${sandbox.url}${path}`, { method: body ? 'POST' : 'GET', headers: auth, body: body ? JSON.stringify(body) : undefined });
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
    return response.json() as Promise<Record<string, unknown>>;
  };
  // The engine's client, as far as liveChainResultUrl needs it: the execution, then the result's headers.
  const client = {
    getExecution: async (id: string) => {
      const e = await api(`/executions/${id}`);
      return { status: e.status, resultUrls: (e.resultUrls ?? e.results ?? []) as string[] } as never;
    },
    downloadResult: async (url: string) => {
      const response = await fetch(url, { headers: auth });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response;
    },
  };
  try {
    const texture = await sharp({ create: { width: 750, height: 500, channels: 3, background: { r: 120, g: 110, b: 100 }, noise: { type: 'gaussian', mean: 120, sigma: 40 } } }).png().toBuffer();
    const original = join(root, 'photo-24mp.jpg');
    await sharp(texture).resize(6000, 4000, { kernel: 'cubic' }).jpeg({ quality: 92 }).toFile(original);
    const upload = toDataUrl(await encodeForUpload(original, { policy: 'fit', stripMetadata: true }));
    const step1 = await api('/workflows/color-grade/execute', { images: { photo: upload }, texts: { look: 'warm' } });
    const id = String(step1.id ?? step1.executionId);
    let execution: Record<string, unknown>;
    do execution = await api(`/executions/${id}`); while (execution.status !== 'completed' && (await new Promise((r) => setTimeout(r, 20)), true));
    const url = ((execution.resultUrls ?? execution.results) as string[])[0]!;
    const saved = join(root, 'step-1.jpg');
    await writeFile(saved, Buffer.from(await (await client.downloadResult(url)).arrayBuffer()));
    const links = { chainLinkOf: () => ({ executionId: id, resultIndex: 0, contentHash: 'saved' }) };
    const step2 = (image: string) => api('/workflows/film-effects/execute', { images: { photo: image }, switchSelections: { effects: ['grain'] } });
    const times = { url: [] as number[], upload: [] as number[] };
    const bytes = { url: 0, upload: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      let at = performance.now();
      const live = await liveChainResultUrl(links, client, saved, 'saved');
      if (!live) throw new Error('the step 1 result URL did not answer');
      await step2(live);
      times.url.push(performance.now() - at);
      bytes.url = Buffer.byteLength(live);
      at = performance.now();
      const fresh = toDataUrl(await encodeForUpload(saved, { policy: 'fit', stripMetadata: true }));
      await step2(fresh);
      times.upload.push(performance.now() - at);
      bytes.upload = Buffer.byteLength(fresh);
      log(`round ${round + 1}: by URL ${times.url.at(-1)!.toFixed(1)} ms (${bytes.url} B) · fresh upload ${times.upload.at(-1)!.toFixed(1)} ms (${(bytes.upload / 1024).toFixed(0)} KiB)`);
    }
    const metrics = {
      rounds: ROUNDS,
      urlMsMedian: Math.round(median(times.url) * 10) / 10,
      uploadMsMedian: Math.round(median(times.upload) * 10) / 10,
      timeRatioUrlToUpload: Math.round((median(times.url) / median(times.upload)) * 1000) / 1000,
      urlRequestImageBytes: bytes.url,
      uploadRequestImageBytes: bytes.upload,
      bytesRatioUrlToUpload: Math.round((bytes.url / bytes.upload) * 1e6) / 1e6,
      stats: sandbox.stats().imageInputs,
    };
    log(`a chain step by URL takes ${metrics.timeRatioUrlToUpload}× the time of a fresh upload and sends ${metrics.urlRequestImageBytes} B instead of ${(metrics.uploadRequestImageBytes / 1024).toFixed(0)} KiB`);
    log(JSON.stringify(metrics));
  } finally {
    await sandbox.close();
    await rm(root, { recursive: true, force: true });
  }
}

await main();
