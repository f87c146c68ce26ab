// Queue rendering under load, in Debian's Chromium: 10,000 items, progress messages at the engine's coalesced rate
// (≤ 10/s) that touch every item every second, while the list scrolls continuously. Measures what the renderer
// receives (messages/s, item updates/s) and the frame distribution (rAF intervals and per-frame main-thread cost).
// Last line: one JSON object of metrics.
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { fileUnder, serveStatic } from '../test/helpers/static-server';

const ROOT = resolve(import.meta.dirname, '..');
const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const RATE = 10;
const PER_MESSAGE = Math.ceil(ITEMS / RATE); // every item changes once per second
const SCROLL_MS = 6_000;
const PX_PER_FRAME = 480; // ten rows per frame: a fast flick, sustained

const out = await mkdtemp(join(tmpdir(), 'br-bench-ui-'));
await build({
  configFile: join(ROOT, 'vite.config.ts'),
  logLevel: 'error',
  build: { outDir: out, emptyOutDir: true, sourcemap: false, rollupOptions: { input: join(ROOT, 'renderer/bench/queue-bench.html') } },
});

/** What renderer/bench/queue-bench.tsx exposes on the page (this file type-checks against Node's lib, not the DOM). */
interface QueueBenchPage {
  queueBench: {
    loadedItems(): number;
    renderedRows(): number;
    startProgress(rate: number, perMessage: number): void;
    stopProgress(): void;
    stats(): { delivered: number[]; itemUpdates: number };
    measureScrolling(ms: number, pxPerFrame: number): Promise<{ intervals: number[]; costs: number[] }>;
  };
}

const server = await serveStatic((pathname) => fileUnder(out, pathname));
const port = server.port;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const round = (n: number) => Math.round(n * 100) / 100;
const describe = (values: number[]) => ({ n: values.length, p50: round(pct(values, 50)), p95: round(pct(values, 95)), p99: round(pct(values, 99)), max: round(Math.max(...values)) });

try {
  const page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
  const loadStart = Date.now();
  await page.goto(`http://127.0.0.1:${port}/bench/queue-bench.html?items=${ITEMS}`);
  // The store holds a window of the batch, not the batch (issue 34): the first rows on screen are the load.
  await page.waitForFunction(() => (globalThis as unknown as QueueBenchPage).queueBench?.renderedRows() > 0, undefined, { timeout: 60_000 });
  const loadMs = Date.now() - loadStart;
  const rows = await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.renderedRows());
  const held = await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.loadedItems());

  const idle = await page.evaluate(([ms, px]) => (globalThis as unknown as QueueBenchPage).queueBench.measureScrolling(ms, px), [SCROLL_MS / 2, PX_PER_FRAME] as const);

  await page.evaluate(([rate, per]) => (globalThis as unknown as QueueBenchPage).queueBench.startProgress(rate, per), [RATE, PER_MESSAGE] as const);
  await page.waitForTimeout(500);
  const loaded = await page.evaluate(([ms, px]) => (globalThis as unknown as QueueBenchPage).queueBench.measureScrolling(ms, px), [SCROLL_MS, PX_PER_FRAME] as const);
  await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.stopProgress());
  const { delivered, itemUpdates } = await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.stats());

  // Messages per one-second window over the loaded phase.
  const windows: number[] = [];
  for (let start = delivered[0] ?? 0; start + 1000 <= (delivered.at(-1) ?? 0); start += 1000) {
    windows.push(delivered.filter((t: number) => t >= start && t < start + 1000).length);
  }
  const seconds = ((delivered.at(-1) ?? 0) - (delivered[0] ?? 0)) / 1000;
  const over16 = (values: number[]) => round((values.filter((v) => v > 16.7).length / Math.max(1, values.length)) * 100);

  const idleCost = describe(idle.costs);
  const loadedCost = describe(loaded.costs);
  const loadedInterval = describe(loaded.intervals);

  console.log(`items ${ITEMS}, DOM rows ${rows}, items held by the renderer ${held}, initial load ${loadMs} ms`);
  console.log(`messages/s max ${Math.max(...windows)} (limit 10), item updates/s ${Math.round(itemUpdates / Math.max(seconds, 0.001))}`);
  console.log(`frame cost idle scroll     p50 ${idleCost.p50} p95 ${idleCost.p95} p99 ${idleCost.p99} max ${idleCost.max} ms`);
  console.log(`frame cost scroll+progress p50 ${loadedCost.p50} p95 ${loadedCost.p95} p99 ${loadedCost.p99} max ${loadedCost.max} ms (${over16(loaded.costs)}% over 16.7 ms)`);
  console.log(`progress cost ratio (p50 under progress / p50 idle scroll): ${round(loadedCost.p50 / Math.max(idleCost.p50, 0.01))}×`);
  console.log(`machine load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores (frame numbers are only comparable at similar load)`);
  console.log(`frame interval scroll+progress p50 ${loadedInterval.p50} p95 ${loadedInterval.p95} max ${loadedInterval.max} ms (${over16(loaded.intervals)}% of frames late)`);
  console.log(JSON.stringify({
    items: ITEMS, domRows: rows, heldItems: held, loadMs,
    messagesPerSecondMax: Math.max(...windows), itemUpdatesPerSecond: Math.round(itemUpdates / Math.max(seconds, 0.001)),
    idleFrameCostMs: idleCost, frameCostMs: loadedCost, frameIntervalMs: loadedInterval, progressCostRatioP50: round(loadedCost.p50 / Math.max(idleCost.p50, 0.01)),
    loadAverage: round(loadavg()[0]!), cores: cpus().length,
    framesCostOver16msPct: over16(loaded.costs), framesLatePct: over16(loaded.intervals),
  }));
} finally {
  await browser.close();
  server.close();
  await rm(out, { recursive: true, force: true });
}
