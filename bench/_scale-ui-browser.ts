// The Chromium half of bench/scale-ui.ts: builds renderer/bench/queue-bench.html, serves it on 127.0.0.1 and drives
// `window.queueBench` (a batch of `items` from the scripted bridge, part-way through) with playwright-core.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';
import { fileUnder, serveStatic, type StaticServer } from '../test/helpers/static-server';
import { profilePhase, type CpuByKind, type PhaseProfile } from './_scale-ui-trace';

const ROOT = resolve(import.meta.dirname, '..');
export const RATE = 10; // the engine's coalescer: at most 10 progress messages a second
// At 100k: 1,000 items a message, 10,000 item changes a second (far more than 32 slots make; the stress of
// bench/ui-queue.ts); smaller batches in proportion, so each item changes once every 10 s at any scale.
export const perMessage = (items: number) => Math.min(1000, Math.ceil(items / 100));
export const SCROLL_MS = 5_000;
const PX_PER_FRAME = 480; // ten rows per frame: a fast flick, sustained
// BENCH_PROFILE=1: an unminified build, and a trace + CPU profile of the scroll-with-progress phase (where a frame's
// time goes). It slows that phase, so its frame figures are not the bench's.
const PROFILE = process.env.BENCH_PROFILE === '1';

interface DomChanges { added: number; removed: number; attributes: number; texts: number }
interface ScrollRun { intervals: number[]; costs: number[]; dom: DomChanges }
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
  /** ms since navigation: the bench page's script starts, its scripted main is built, the first rows show. */
  loadSteps: { scriptAt: number; bridgeAt: number; firstRowsAt: number; bundleMs: number };
  /** Main-thread CPU per frame while progress streams and the list scrolls (trace thread time ÷ frames). */
  cpuPerFrameMs: number;
  cpuByKindPerFrame: CpuByKind;
  /** DOM changes under the table per frame in the same pass (elements added: rows mounted). */
  domPerFrame: DomChanges;
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
export interface QueueBenchPage {
  queueBench: {
    loadedItems(): number;
    renderedRows(): number;
    startProgress(rate: number, perMessage: number): void;
    stopProgress(): void;
    stats(): { delivered: number[]; itemUpdates: number };
    measureScrolling(ms: number, pxPerFrame: number): Promise<ScrollRun>;
    loadTimes(): { scriptAt: number; bridgeAt: number; firstRowsAt: number; bundleMs: number };
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

/** Builds `root`'s bench page (renderer/bench/queue-bench.html) into `outDir`. */
export async function buildBenchPage(root: string, outDir: string): Promise<void> {
  await build({
    configFile: join(root, 'vite.config.ts'),
    root: join(root, 'renderer'),
    logLevel: 'error',
    build: { outDir, emptyOutDir: true, sourcemap: false, minify: !PROFILE, rollupOptions: { input: join(root, 'renderer/bench/queue-bench.html') } },
  });
}

/** Serves each build under its own prefix (`/a/…`, `/b/…`) on 127.0.0.1. */
export function serveBuilds(builds: Record<string, string>): Promise<StaticServer> {
  return serveStatic((pathname) => {
    const [, prefix = '', ...rest] = pathname.split('/');
    const out = builds[prefix];
    return out ? fileUnder(out, rest.join('/')) : null;
  });
}

export const launchChromium = () => chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});

/** Opens the bench page of `items` at `url` and waits for its first rows. */
export async function openBenchPage(browser: Browser, url: string, items: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
  await page.goto(`${url}/bench/queue-bench.html?items=${items}&mixed=1`);
  await page.waitForFunction(() => (globalThis as unknown as QueueBenchPage).queueBench?.renderedRows() > 0, undefined, { timeout: 120_000 });
  return page;
}

/** What one traced pass of scrolling while progress streams cost the main thread, per frame. */
export interface TracedPass { frames: number; cpuPerFrameMs: number; cpuByKindPerFrame: CpuByKind; domPerFrame: DomChanges; profile: PhaseProfile }

const perFrame = <T extends object>(totals: T, frames: number): T =>
  Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, round((v as number) / Math.max(1, frames))])) as T;

/** Scrolls `page` for `ms` under a trace (progress already streaming): CPU per frame, by kind, DOM changes per frame. */
export async function tracedPass(browser: Browser, page: Page, ms: number, withProfile = false): Promise<TracedPass> {
  let traced: ScrollRun = { intervals: [], costs: [], dom: { added: 0, removed: 0, attributes: 0, texts: 0 } };
  const profile = await profilePhase(browser, page, async () => {
    traced = await page.evaluate(([span, px]) => (globalThis as unknown as QueueBenchPage).queueBench.measureScrolling(span, px), [ms, PX_PER_FRAME] as const);
  }, withProfile);
  const frames = traced.costs.length;
  return { frames, cpuPerFrameMs: round(profile.mainThreadCpuMs / Math.max(1, frames)), cpuByKindPerFrame: perFrame(profile.cpuByKind, frames), domPerFrame: perFrame(traced.dom, frames), profile };
}

export async function browseBench(items: number): Promise<BrowseFigures> {
  const out = await mkdtemp(join(tmpdir(), 'br-bench-scale-ui-'));
  await buildBenchPage(ROOT, out);
  const server = await serveBuilds({ a: out });
  const browser = await launchChromium();
  try {
    const loadStart = Date.now();
    const page = await openBenchPage(browser, `http://127.0.0.1:${server.port}/a`, items);
    const loadMs = Date.now() - loadStart;
    const loadSteps = await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.loadTimes());
    const domRows = await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.renderedRows());
    const heldAfterLoad = await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.heldItems());

    const idle = await page.evaluate(([ms, px]) => (globalThis as unknown as QueueBenchPage).queueBench.measureScrolling(ms, px), [SCROLL_MS / 2, PX_PER_FRAME] as const);
    await page.evaluate(([rate, per]) => (globalThis as unknown as QueueBenchPage).queueBench.startProgress(rate, per), [RATE, perMessage(items)] as const);
    await page.waitForTimeout(500);
    const scroll = (ms: number) => page.evaluate(([span, px]) => (globalThis as unknown as QueueBenchPage).queueBench.measureScrolling(span, px), [ms, PX_PER_FRAME] as const);
    const loaded = await scroll(SCROLL_MS);
    // The same again, traced: the main thread's CPU time per frame (what the code costs, whatever the load) and,
    // with BENCH_PROFILE=1 (unminified), which events and functions it goes to.
    const traced = await tracedPass(browser, page, SCROLL_MS / 2, PROFILE);
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
      loadSteps: { scriptAt: round(loadSteps.scriptAt), bridgeAt: round(loadSteps.bridgeAt), firstRowsAt: round(loadSteps.firstRowsAt), bundleMs: round(loadSteps.bundleMs) },
      cpuPerFrameMs: traced.cpuPerFrameMs, cpuByKindPerFrame: traced.cpuByKindPerFrame, domPerFrame: traced.domPerFrame, filter, failedEnd, allEnd, heldAfterScroll, review, ...(PROFILE ? { profile: traced.profile } : {}),
    };
  } finally {
    await browser.close();
    server.close();
    await rm(out, { recursive: true, force: true });
  }
}
