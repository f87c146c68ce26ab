// Where a frame's time goes, for bench/scale-ui.ts: a Chromium performance trace of the renderer's main thread summed
// by event (self time, wall and CPU) and by kind (script / style / layout / paint / other, CPU), and with
// BENCH_PROFILE=1 a V8 CPU profile summed by function (self time), both over one phase of the bench. Never asserted.
import type { Browser, Page } from 'playwright-core';

interface TraceEvent { name: string; ph: string; ts: number; dur?: number; tdur?: number; pid: number; tid: number; args?: { name?: string } }
interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }
interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

/** What the main thread's CPU went to, by kind of trace event (self CPU time, ms). */
export interface CpuByKind { script: number; style: number; layout: number; paint: number; other: number }
export type TraceKind = keyof CpuByKind;

const STYLE = new Set(['UpdateLayoutTree', 'RecalculateStyles', 'ParseAuthorStyleSheet', 'InvalidateLayout', 'ScheduleStyleRecalculation']);
const LAYOUT = new Set(['Layout', 'UpdateLayerTree', 'IntersectionObserverController::computeIntersections', 'ComputeIntersections']);
const PAINT = new Set(['Paint', 'PrePaint', 'Commit', 'Layerize', 'CompositeLayers', 'PaintImage', 'UpdateLayer', 'ScrollLayer', 'Decode Image', 'RasterTask']);

/** The kind of a trace event: style, layout and paint by name; script is V8 and the tasks that run it. */
export function kindOf(name: string): TraceKind {
  if (STYLE.has(name)) return 'style';
  if (LAYOUT.has(name)) return 'layout';
  if (PAINT.has(name)) return 'paint';
  if (/^(FunctionCall|EvaluateScript|v8\.|V8\.|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|MinorGC|MajorGC|BlinkGC|GCEvent|HandlePostMessage|ProfileCall|CompileScript|CompileCode|v8)/.test(name)) return 'script';
  return 'other';
}

/**
 * mainThreadMs: wall time the page's main thread was busy; mainThreadCpuMs: the CPU time it got for that (trace
 * thread time), the figure a loaded machine changes least — at load 20 on 2 cores a thread gets a tenth of a core,
 * so wall frame times grow tenfold while CPU per frame stays what the code costs. cpuByKind splits that CPU time.
 */
export interface PhaseProfile { traceTop: { name: string; ms: number }[]; functionsTop: { name: string; ms: number }[]; mainThreadMs: number; mainThreadCpuMs: number; cpuByKind: CpuByKind }

/** Self time per event name on the page's main thread: each complete event minus the events nested in it. */
export function summarizeTrace(events: TraceEvent[]): { top: { name: string; ms: number }[]; totalMs: number; cpuMs: number; cpuByKind: CpuByKind } {
  const cpuByKind: CpuByKind = { script: 0, style: 0, layout: 0, paint: 0, other: 0 };
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return { top: [], totalMs: 0, cpuMs: 0, cpuByKind };
  const spans = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && typeof e.dur === 'number')
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const self = new Map<string, number>();
  const stack: { end: number; name: string }[] = [];
  let totalMs = 0;
  let cpuMs = 0;
  for (const e of spans) {
    while (stack.length && stack.at(-1)!.end <= e.ts) stack.pop();
    const parent = stack.at(-1);
    const cpu = (e.tdur ?? e.dur!) / 1000;
    if (parent) {
      self.set(parent.name, (self.get(parent.name) ?? 0) - e.dur! / 1000);
      cpuByKind[kindOf(parent.name)] -= cpu;
    } else {
      totalMs += e.dur! / 1000;
      cpuMs += cpu;
    }
    self.set(e.name, (self.get(e.name) ?? 0) + e.dur! / 1000);
    cpuByKind[kindOf(e.name)] += cpu;
    stack.push({ end: e.ts + e.dur!, name: e.name });
  }
  const top = [...self].map(([name, ms]) => ({ name, ms: Math.round(ms * 10) / 10 })).sort((a, b) => b.ms - a.ms).slice(0, 14);
  for (const kind of Object.keys(cpuByKind) as TraceKind[]) cpuByKind[kind] = Math.round(Math.max(0, cpuByKind[kind]) * 10) / 10;
  return { top, totalMs: Math.round(totalMs), cpuMs: Math.round(cpuMs), cpuByKind };
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

/**
 * Runs `phase` under a trace of `page`, and with `withProfile` a V8 CPU profile too. The profiler samples every
 * 200 µs on the main thread, so it is off unless asked for: the CPU per frame figure is the trace's alone.
 */
export async function profilePhase(browser: Browser, page: Page, phase: () => Promise<unknown>, withProfile = false): Promise<PhaseProfile> {
  const cdp = withProfile ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  }
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8'] });
  if (cdp) await cdp.send('Profiler.start');
  await phase();
  const profile = cdp ? (await cdp.send('Profiler.stop') as unknown as { profile: CpuProfile }).profile : null;
  const buffer = await browser.stopTracing();
  const { traceEvents } = JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] };
  const trace = summarizeTrace(traceEvents);
  await cdp?.detach();
  return { traceTop: trace.top, mainThreadMs: trace.totalMs, mainThreadCpuMs: trace.cpuMs, cpuByKind: trace.cpuByKind, functionsTop: profile ? summarizeProfile(profile) : [] };
}
