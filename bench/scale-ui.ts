// Issue 34 item 4, "the app stays smooth": the Queue and Review screens with 100,000 items × BENCH_SCALE, in Debian's
// Chromium (playwright-core), fed by renderer/bench/scripted-bridge.ts (a batch part-way through: 2 % failed, a third
// saved). Measures the frame cost while progress streams and the list scrolls, the time from a click on "Failed" to
// the failed rows on screen, scrolling to the end, how many items the renderer holds and main sends, and Review.
// Beside it, in Node, the journal read that answers a page of a filtered batch on a real SQLite journal of the same
// size. Last line: one JSON object of metrics.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BatchSpecSchema } from '../shared/engine/model';
import { openJournal, type BatchRecord, type Journal, type NewItem } from '../main/core/journal';
import { readItemWindow } from '../main/core/journal/item-window';
import { abBench, type AbFigures } from './_scale-ui-ab';
import { browseBench, type BrowseFigures } from './_scale-ui-browser';

const FIXTURES = '/tmp/batchroom-scale-fixtures';
const round = (n: number) => Math.round(n * 100) / 100;

/** The state an item of the fixture batch is in: the same rule as the scripted bridge's mixed batch. */
const stateAt = (n: number): NewItem['state'] => (n % 50 === 7 ? 'failed' : n % 3 === 0 ? 'saved' : 'pending');

/** A journal holding one batch of `count` items (cached by count: 100k rows take a few seconds to write). */
export function fixtureJournal(count: number): { journal: Journal; batchId: string } {
  const dir = join(FIXTURES, `ui-journal-${count}`);
  const batchId = 'scale-ui';
  const ready = existsSync(join(dir, 'ready'));
  const journal = openJournal(dir);
  if (!ready) {
    const workflow = { id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 1, inputSchema: { imageFields: [], textFields: [], switchFields: [] } };
    const spec = BatchSpecSchema.parse({ workflowId: 'color-grade', inputs: { paths: ['/in'] }, output: { outputFolder: '/out' } });
    const at = new Date(0).toISOString();
    const batch: BatchRecord = { id: batchId, spec, workflow, creditCost: count, state: 'paused', pausedReason: 'bench', pauseCode: 'user', createdAt: at, updatedAt: at, creditsSpent: 0, budget: null, outputFolder: '/out' };
    const items: NewItem[] = Array.from({ length: count }, (_, n) => ({
      id: `s${n}`, position: n, displayName: `IMG_${String(n).padStart(6, '0')}.jpg`, sources: { photo: `/in/IMG_${n}.jpg` }, relDir: '', contentHash: `h${n}`,
      state: stateAt(n), reason: null,
    }));
    journal.createBatch(batch, items);
  }
  return { journal, batchId };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
function timed(run: () => unknown, times = 5): number {
  const ms: number[] = [];
  for (let k = 0; k < times; k++) {
    const start = performance.now();
    run();
    ms.push(performance.now() - start);
  }
  return round(median(ms));
}

export interface JournalFigures {
  items: number;
  failed: number;
  /** One page (200) of the failed items, from the top and from the end, with the counts per state. */
  failedFirstPageMs: number;
  failedLastPageMs: number;
  /** One page of every item, at the end of the batch. */
  allLastPageMs: number;
  /** The whole batch read in pages of 5,000 (what the renderer asked for before paging). */
  wholeBatchMs: number;
}

/** The journal read behind the item-window channel, on a real SQLite journal of `count` items. */
export async function journalBench(count: number): Promise<JournalFigures> {
  await mkdir(FIXTURES, { recursive: true });
  const { journal, batchId } = fixtureJournal(count);
  try {
    const failed = readItemWindow(journal, { batchId, filter: 'failed', offset: 0, limit: 200 }).total;
    const figures = {
      items: count,
      failed,
      failedFirstPageMs: timed(() => readItemWindow(journal, { batchId, filter: 'failed', offset: 0, limit: 200 })),
      failedLastPageMs: timed(() => readItemWindow(journal, { batchId, filter: 'failed', offset: Math.max(0, failed - 200), limit: 200 })),
      allLastPageMs: timed(() => readItemWindow(journal, { batchId, filter: 'all', offset: count - 200, limit: 200 })),
      wholeBatchMs: timed(() => {
        for (let offset = 0; offset < count; offset += 5000) journal.listItems({ batchId, offset, limit: 5000 });
      }, 1),
    };
    await writeFile(join(FIXTURES, `ui-journal-${count}`, 'ready'), '');
    return figures;
  } finally {
    journal.close();
  }
}

const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

const kinds = (k: { script: number; style: number; layout: number; paint: number; other: number }) =>
  `script ${k.script} / style ${k.style} / layout ${k.layout} / paint ${k.paint} / other ${k.other}`;
const medianOf = (values: number[]) => round(median(values));

/** The A/B lines: CPU per frame of this tree and the other, alternating in one run (BENCH_UI_AB). */
function printAb(ab: AbFigures) {
  const line = (name: string, runs: AbFigures['thisTree']) => {
    const cpu = runs.map((r) => r.cpuPerFrameMs);
    const kind = (k: keyof AbFigures['thisTree'][number]['cpuByKindPerFrame']) => medianOf(runs.map((r) => r.cpuByKindPerFrame[k]));
    return `${name}: CPU per frame ${cpu.join(' / ')} ms (median ${medianOf(cpu)}; ${kinds({ script: kind('script'), style: kind('style'), layout: kind('layout'), paint: kind('paint'), other: kind('other') })}), elements added per frame ${medianOf(runs.map((r) => r.domPerFrame.added))}`;
  };
  console.log(`A/B, ${ab.rounds} rounds alternating, traced scroll+progress: ${line('this tree', ab.thisTree)}`);
  console.log(`A/B: ${line(ab.other, ab.otherTree)}; this ÷ other ${round(medianOf(ab.thisTree.map((r) => r.cpuPerFrameMs)) / Math.max(0.01, medianOf(ab.otherTree.map((r) => r.cpuPerFrameMs))))}`);
}

export async function scaleUi(scale = Number(process.env.BENCH_SCALE ?? 1)): Promise<{ journal: JournalFigures; browser: BrowseFigures; ab?: AbFigures }> {
  const items = Math.max(200, Math.round(100_000 * scale));
  const journal = await journalBench(items);
  const browser = await browseBench(items);
  const ab = process.env.BENCH_UI_AB ? await abBench(resolve(process.env.BENCH_UI_AB), items) : undefined;
  const load = loadavg()[0]!;
  const f = browser;
  console.log(`items ${items} (BENCH_SCALE ${scale}), machine load average ${load.toFixed(1)} on ${cpus().length} cores`);
  console.log(`queue: first rows after ${f.loadMs} ms (in the page, ms since navigation: scripts downloaded ${f.loadSteps.bundleMs}, bench script starts ${f.loadSteps.scriptAt}, scripted main's ${items} items built ${f.loadSteps.bridgeAt}, first rows ${f.loadSteps.firstRowsAt}); DOM rows ${f.domRows}; items held by the renderer ${f.heldAfterLoad} (${round((f.heldAfterLoad / items) * 100)} % of the batch); items main sent ${f.itemsSent} in ${f.itemRequests} requests`);
  console.log(`frame cost scroll+progress p50 ${f.frameCostMs.p50} p95 ${f.frameCostMs.p95} ms (goal p95 ≤ 16.7 ms: ${verdict(f.frameCostMs.p95 <= 16.7)}); idle scroll p95 ${f.idleFrameCostMs.p95} ms; progress cost ratio p95 ${round(f.frameCostMs.p95 / Math.max(f.idleFrameCostMs.p95, 0.01))}×`);
  console.log(`main-thread CPU per frame, scroll+progress (traced): ${f.cpuPerFrameMs} ms (within the 16.7 ms frame: ${verdict(f.cpuPerFrameMs <= 16.7)}; wall frame cost at this load is that ÷ the share of a core the page gets): ${kinds(f.cpuByKindPerFrame)}; DOM per frame: ${f.domPerFrame.added} elements added, ${f.domPerFrame.removed} removed, ${f.domPerFrame.attributes} attributes, ${f.domPerFrame.texts} texts`);
  console.log(`frame interval scroll+progress p95 ${f.frameIntervalMs.p95} ms, ${f.framesLatePct} % of frames late; ${f.itemUpdatesPerSecond} item updates/s in ≤ ${f.messagesPerSecondMax} messages/s`);
  console.log(`filter "failed": ${f.filter.ms} ms click → ${f.filter.rowCount} rows counted (expected ${f.filter.expected}), ${f.filter.rows} in the DOM; of it the renderer ${f.filter.rendererMs} ms, the page-thread stand-in for main ${f.filter.mainMs} ms (goal ≤ 100 ms with main's SQLite page below: renderer + journal ${round(f.filter.rendererMs + journal.failedFirstPageMs)} ms, ${verdict(f.filter.rendererMs + journal.failedFirstPageMs <= 100 && f.filter.rowCount === f.filter.expected)})`);
  console.log(`scroll to the end of "failed": ${f.failedEnd.ms} ms; of every item: ${f.allEnd.ms} ms; items held after both ${f.heldAfterScroll} (${round((f.heldAfterScroll / items) * 100)} % of the batch; goal: a window, not the batch: ${verdict(f.heldAfterScroll < items / 2)})`);
  console.log(`review: open ${f.review.ms} ms ("${f.review.position}"), items held ${f.review.held}; ${f.review.thumbnails} thumbnails asked for ${f.review.saved} saved items (goal: pages, not all: ${verdict(f.review.held < items / 2)})`);
  console.log(`journal (SQLite, ${items} rows): a page of "failed" (${journal.failed}) first ${journal.failedFirstPageMs} ms, last ${journal.failedLastPageMs} ms; last page of all ${journal.allLastPageMs} ms; the whole batch in pages of 5,000 ${journal.wholeBatchMs} ms (goal ≤ 100 ms: ${verdict(journal.failedLastPageMs <= 100 && journal.allLastPageMs <= 100)})`);
  if (f.profile) {
    console.log(`profile of scroll+progress (main thread busy ${f.profile.mainThreadMs} ms, CPU ${f.profile.mainThreadCpuMs} ms): by trace event (self ms) ${f.profile.traceTop.map((e) => `${e.name} ${e.ms}`).join(', ')}`);
    console.log(`by function (self ms): ${f.profile.functionsTop.map((e) => `${e.name} ${e.ms}`).join(', ')}`);
  }
  if (ab) printAb(ab);
  console.log(JSON.stringify({ items, scale, loadAverage: round(load), cores: cpus().length, ...f, journal, ...(ab ? { ab } : {}) }));
  return { journal, browser, ...(ab ? { ab } : {}) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await scaleUi();
