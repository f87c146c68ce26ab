// The Chromium half of bench/scale-ui.ts: builds renderer/bench/queue-bench.html, serves it on 127.0.0.1 and drives
// `window.queueBench` (a batch of `items` from the scripted bridge, part-way through) with playwright-core.
import { createReadStream, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { contentTypeFor } from '../main/core/media/content-types';
import { profilePhase, type PhaseProfile } from './_scale-ui-trace';

const ROOT = resolve(import.meta.dirname, '..');
const RATE = 10; // the engine's coalescer: at most 10 progress messages a second
// At 100k: 1,000 items a message, 10,000 item changes a second (far more than 32 slots make; the stress of
// bench/ui-queue.ts); smaller batches in proportion, so each item changes once every 10 s at any scale.
const perMessage = (items: number) => Math.min(1000, Math.ceil(items / 100));
const SCROLL_MS = 5_000;
const PX_PER_FRAME = 480; // ten rows per frame: a fast flick, sustained
// BENCH_PROFILE=1: an unminified build, and a trace + CPU profile of the scroll-with-progress phase (where a frame's
// time goes). It slows that phase, so its frame figures are not the bench's.
const PROFILE = process.env.BENCH_PROFILE === '1';

interface Stats { n: number; p50: number; p95: number; p99: number; max: number }
export interface BrowseFigures {
  loadMs: number;
  domRows: number;
  heldAfterLoad: number;
  itemRequests: number;
  itemsSent: number;
  idleFrameCostMs: Stats;
  frameCostMs: Stats;
  frameIntervalMs: Stats;
  framesLatePct: number;
  /** Main-thread CPU per frame while progress streams and the list scrolls (trace thread time ÷ frames). */
  cpuPerFrameMs: number;
  messagesPerSecondMax: number;
  itemUpdatesPerSecond: number;
  /** ms: click → failed rows on screen; mainMs: the page-thread stand-in for main's share of it; rendererMs: the rest. */
  filter: { ms: number; mainMs: number; rendererMs: number; rowCount: number; rows: number; expected: number };
  failedEnd: { ms: number; rows: number };
  allEnd: { ms: number; rows: number };
  heldAfterScroll: number;
  review: { ms: number; position: string; held: number; thumbnails: number; saved: number };
  profile?: PhaseProfile;
}

/** What renderer/bench/queue-bench.tsx exposes on the page (this file type-checks against Node's lib, not the DOM). */
interface QueueBenchPage {
  queueBench: {
    loadedItems(): number;
    renderedRows(): number;
    startProgress(rate: number, perMessage: number): void;
    stopProgress(): void;
    stats(): { delivered: number[]; itemUpdates: number };
    measureScrolling(ms: number, pxPerFrame: number): Promise<{ intervals: number[]; costs: number[] }>;
    heldItems(): number;
    served(): { itemRequests: number; itemsSent: number; thumbnails: number; mainMs: number };
    counts(): Record<string, number>;
    lastName(state: string | null): string;
    filterTo(label: string, expected: number, stateWord: string): Promise<{ ms: number; mainMs: number; rowCount: number; rows: number }>;
    scrollToEnd(lastName: string): Promise<{ ms: number; rows: number }>;
    openReview(): Promise<{ ms: number; position: string }>;
  };
}

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const round = (n: number) => Math.round(n * 100) / 100;
const roundMs = <T extends { ms: number }>(v: T): T => ({ ...v, ms: round(v.ms) });
const describe = (values: number[]): Stats => ({ n: values.length, p50: round(pct(values, 50)), p95: round(pct(values, 95)), p99: round(pct(values, 99)), max: round(Math.max(...values)) });

export async function browseBench(items: number): Promise<BrowseFigures> {
  const out = await mkdtemp(join(tmpdir(), 'br-bench-scale-ui-'));
  await build({
    configFile: join(ROOT, 'vite.config.ts'),
    logLevel: 'error',
    build: { outDir: out, emptyOutDir: true, sourcemap: false, minify: !PROFILE, rollupOptions: { input: join(ROOT, 'renderer/bench/queue-bench.html') } },
  });
  const server = createServer((req, res) => {
    const path = normalize(join(out, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
    if (!path.startsWith(out) || !existsSync(path)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': contentTypeFor(path) });
    createReadStream(path).pipe(res);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
    const loadStart = Date.now();
    await page.goto(`http://127.0.0.1:${port}/bench/queue-bench.html?items=${items}&mixed=1`);
    await page.waitForFunction(() => (globalThis as unknown as QueueBenchPage).queueBench?.renderedRows() > 0, undefined, { timeout: 120_000 });
    const loadMs = Date.now() - loadStart;
    const domRows = await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.renderedRows());
    const heldAfterLoad = await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.heldItems());

    const idle = await page.evaluate(([ms, px]) => (globalThis as unknown as QueueBenchPage).queueBench.measureScrolling(ms, px), [SCROLL_MS / 2, PX_PER_FRAME] as const);
    await page.evaluate(([rate, per]) => (globalThis as unknown as QueueBenchPage).queueBench.startProgress(rate, per), [RATE, perMessage(items)] as const);
    await page.waitForTimeout(500);
    const scroll = (ms: number) => page.evaluate(([span, px]) => (globalThis as unknown as QueueBenchPage).queueBench.measureScrolling(span, px), [ms, PX_PER_FRAME] as const);
    const loaded = await scroll(SCROLL_MS);
    // The same again, traced: the main thread's CPU time per frame (what the code costs, whatever the load) and,
    // with BENCH_PROFILE=1 (unminified), which events and functions it goes to.
    let traced = { intervals: [] as number[], costs: [] as number[] };
    const profile = await profilePhase(browser, page, async () => { traced = await scroll(SCROLL_MS / 2); });
    const cpuPerFrameMs = round(profile.mainThreadCpuMs / Math.max(1, traced.costs.length));
    await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.stopProgress());
    const { delivered, itemUpdates } = await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.stats());
    const windows: number[] = [];
    for (let start = delivered[0] ?? 0; start + 1000 <= (delivered.at(-1) ?? 0); start += 1000) {
      windows.push(delivered.filter((t: number) => t >= start && t < start + 1000).length);
    }
    const seconds = ((delivered.at(-1) ?? 0) - (delivered[0] ?? 0)) / 1000;
    await page.waitForTimeout(300); // the last message's render

    const expected = (await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.counts())).failed ?? 0;
    const filtered = await page.evaluate((n) => (globalThis as unknown as QueueBenchPage).queueBench.filterTo('Failed', n, 'Failed'), expected);
    const filter = { ...filtered, ms: round(filtered.ms), mainMs: round(filtered.mainMs), rendererMs: round(filtered.ms - filtered.mainMs), expected };
    const failedEnd = roundMs(await page.evaluate((name) => (globalThis as unknown as QueueBenchPage).queueBench.scrollToEnd(name), await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.lastName('failed'))));
    await page.locator('[role="radio"]', { hasText: /^All/ }).first().click();
    await page.waitForTimeout(300);
    const allEnd = roundMs(await page.evaluate((name) => (globalThis as unknown as QueueBenchPage).queueBench.scrollToEnd(name), await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.lastName(null))));
    const heldAfterScroll = await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.heldItems());
    const { itemRequests, itemsSent } = await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.served());

    const thumbsBefore = (await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.served())).thumbnails;
    const opened = await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.openReview());
    await page.waitForTimeout(500);
    const review = {
      ...opened,
      ms: round(opened.ms),
      held: await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.heldItems()),
      thumbnails: (await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.served())).thumbnails - thumbsBefore,
      saved: (await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.counts())).saved ?? 0,
    };
    const over16 = (values: number[]) => round((values.filter((v) => v > 16.7).length / Math.max(1, values.length)) * 100);
    return {
      loadMs, domRows, heldAfterLoad, itemRequests, itemsSent,
      idleFrameCostMs: describe(idle.costs), frameCostMs: describe(loaded.costs), frameIntervalMs: describe(loaded.intervals),
      framesLatePct: over16(loaded.intervals), messagesPerSecondMax: Math.max(...windows), itemUpdatesPerSecond: Math.round(itemUpdates / Math.max(seconds, 0.001)),
      cpuPerFrameMs, filter, failedEnd, allEnd, heldAfterScroll, review, ...(PROFILE ? { profile } : {}),
    };
  } finally {
    await browser.close();
    server.close();
    await rm(out, { recursive: true, force: true });
  }
}
