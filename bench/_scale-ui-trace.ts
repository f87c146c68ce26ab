// Where a frame's time goes, for bench/scale-ui.ts (BENCH_PROFILE=1): a Chromium performance trace of the renderer's
// main thread summed by event (script, style, layout, paint, GC, …, self time) and a V8 CPU profile summed by
// function (self time), both over one phase of the bench. Printed as the top lines of each; never asserted.
import type { Browser, Page } from 'playwright-core';

interface TraceEvent { name: string; ph: string; ts: number; dur?: number; tdur?: number; pid: number; tid: number; args?: { name?: string } }
interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }
interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

/**
 * mainThreadMs: wall time the page's main thread was busy; mainThreadCpuMs: the CPU time it got for that (trace
 * thread time), the figure a loaded machine changes least — at load 20 on 2 cores a thread gets a tenth of a core,
 * so wall frame times grow tenfold while CPU per frame stays what the code costs.
 */
export interface PhaseProfile { traceTop: { name: string; ms: number }[]; functionsTop: { name: string; ms: number }[]; mainThreadMs: number; mainThreadCpuMs: number }

/** Self time per event name on the page's main thread: each complete event minus the events nested in it. */
export function summarizeTrace(events: TraceEvent[]): { top: { name: string; ms: number }[]; totalMs: number; cpuMs: number } {
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return { top: [], totalMs: 0, cpuMs: 0 };
  const spans = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && typeof e.dur === 'number')
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const self = new Map<string, number>();
  const stack: { end: number; name: string }[] = [];
  let totalMs = 0;
  let cpuMs = 0;
  for (const e of spans) {
    while (stack.length && stack.at(-1)!.end <= e.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - e.dur! / 1000);
    else {
      totalMs += e.dur! / 1000;
      cpuMs += (e.tdur ?? e.dur!) / 1000;
    }
    self.set(e.name, (self.get(e.name) ?? 0) + e.dur! / 1000);
    stack.push({ end: e.ts + e.dur!, name: e.name });
  }
  const top = [...self].map(([name, ms]) => ({ name, ms: Math.round(ms * 10) / 10 })).sort((a, b) => b.ms - a.ms).slice(0, 14);
  return { top, totalMs: Math.round(totalMs), cpuMs: Math.round(cpuMs) };
}

/** Self time per function of a V8 CPU profile. */
export function summarizeProfile(profile: CpuProfile): { name: string; ms: number }[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, k) => {
    const frame = byId.get(id)!.callFrame;
    const file = frame.url.split('/').pop() ?? '';
    const name = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[k] ?? 0) / 1000);
  });
  return [...self].map(([name, ms]) => ({ name, ms: Math.round(ms * 10) / 10 })).sort((a, b) => b.ms - a.ms).slice(0, 14);
}

/** Runs `phase` under a trace and a CPU profile of `page`. */
export async function profilePhase(browser: Browser, page: Page, phase: () => Promise<unknown>): Promise<PhaseProfile> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8'] });
  await cdp.send('Profiler.start');
  await phase();
  const { profile } = await cdp.send('Profiler.stop') as unknown as { profile: CpuProfile };
  const buffer = await browser.stopTracing();
  const { traceEvents } = JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] };
  const trace = summarizeTrace(traceEvents);
  await cdp.detach();
  return { traceTop: trace.top, mainThreadMs: trace.totalMs, mainThreadCpuMs: trace.cpuMs, functionsTop: summarizeProfile(profile) };
}
