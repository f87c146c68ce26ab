// BENCH_UI_AB=<another checkout>: the renderer of this tree and of that one, in the same Chromium, alternating, each
// page scrolled under a trace while progress streams — so "before" and "after" see the same machine load. The other
// tree gets this tree's bench page (renderer/bench/) first: both are driven by the same harness, only the product
// code differs. Rounds: BENCH_UI_AB_ROUNDS (default 3). Figures: main-thread CPU per frame and its kinds.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  buildBenchPage, launchChromium, openBenchPage, perMessage, RATE, SCROLL_MS, serveBuilds, tracedPass,
  type QueueBenchPage, type TracedPass,
} from './_scale-ui-browser';

const ROOT = resolve(import.meta.dirname, '..');

export interface AbFigures { rounds: number; thisTree: Omit<TracedPass, 'profile'>[]; otherTree: Omit<TracedPass, 'profile'>[]; other: string }

export async function abBench(other: string, items: number, rounds = Number(process.env.BENCH_UI_AB_ROUNDS ?? 3)): Promise<AbFigures> {
  await cp(join(ROOT, 'renderer/bench'), join(other, 'renderer/bench'), { recursive: true });
  const outA = await mkdtemp(join(tmpdir(), 'br-bench-ui-a-'));
  const outB = await mkdtemp(join(tmpdir(), 'br-bench-ui-b-'));
  await buildBenchPage(ROOT, outA);
  await buildBenchPage(other, outB);
  const server = await serveBuilds({ a: outA, b: outB });
  const browser = await launchChromium();
  const runs: Record<'a' | 'b', Omit<TracedPass, 'profile'>[]> = { a: [], b: [] };
  try {
    for (let round = 0; round < rounds; round++) {
      for (const which of round % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const)) {
        const page = await openBenchPage(browser, `http://127.0.0.1:${server.port}/${which}`, items);
        await page.evaluate(([rate, per]) => (globalThis as unknown as QueueBenchPage).queueBench.startProgress(rate, per), [RATE, perMessage(items)] as const);
        await page.waitForTimeout(500);
        await page.evaluate(([ms, px]) => (globalThis as unknown as QueueBenchPage).queueBench.measureScrolling(ms, px), [1000, 480] as const);
        const { profile: _, ...pass } = await tracedPass(browser, page, SCROLL_MS / 2);
        runs[which].push(pass);
        await page.evaluate(() => (globalThis as unknown as QueueBenchPage).queueBench.stopProgress());
        await page.close();
      }
    }
  } finally {
    await browser.close();
    server.close();
    await rm(outA, { recursive: true, force: true });
    await rm(outB, { recursive: true, force: true });
  }
  return { rounds, thisTree: runs.a, otherTree: runs.b, other };
}
