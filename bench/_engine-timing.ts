// The engine bench's timing analysis: what the service saw of a batch's executions (its own clock), and the
// engine's per-phase totals turned into "where the time goes, per execution".
import type { EnginePhase, PhaseTotals } from '../main/core/engine/phase-times';
import type { Journal } from '../main/core/journal';
import type { SpawnedSandbox } from '../test/helpers/sandbox';

const round = (value: number, digits = 3) => Number(value.toFixed(digits));

export interface ServiceTimings {
  executions: number; meanDurationMs: number; meanLateMs: number; maxInFlight: number;
  /** Epoch ms: the first execution the service accepted, the last one it finished. */
  firstAcceptedAt: number; lastFinishedAt: number;
}

/** What the service saw: how long executions really ran, how late the engine noticed, and how many overlapped. */
export async function sandboxTimings(sandbox: SpawnedSandbox, journal: Journal, batchId: string): Promise<ServiceTimings> {
  let duration = 0;
  let late = 0;
  const edges: [number, number][] = [];
  const executions = journal.listExecutions(batchId);
  for (const execution of executions) {
    const response = await fetch(`${sandbox.url}/executions/${execution.id}`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
    const body = (await response.json()) as { createdAt: string; finishedAt: string };
    duration += Date.parse(body.finishedAt) - Date.parse(body.createdAt);
    late += Date.parse(execution.completedAt!) - Date.parse(body.finishedAt);
    edges.push([Date.parse(body.createdAt), 1], [Date.parse(body.finishedAt), -1]);
  }
  // Ends sort before starts at the same millisecond: one execution finishing as the next starts is not an overlap.
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let running = 0;
  let maxInFlight = 0;
  for (const [, step] of edges) maxInFlight = Math.max(maxInFlight, (running += step));
  return {
    executions: executions.length, meanDurationMs: duration / executions.length, meanLateMs: late / executions.length, maxInFlight,
    firstAcceptedAt: edges[0]![0], lastFinishedAt: edges[edges.length - 1]![0],
  };
}

/**
 * Per execution, in ms: encode and wait-for-slot (ahead of time, off the critical path while slots stay full); the
 * slot held (upload + the service's run + until its completion is seen — the part above the service's own time is
 * overhead); download and save (after the slot is free). Slot time lost per execution = (wall·C − Σ held) / N:
 * slots standing empty (start, tail, gaps between one execution ending and the next being sent).
 */
export function phaseBreakdown(before: PhaseTotals, after: PhaseTotals, timing: ServiceTimings, wallMs: number, C: number) {
  const mean = (phase: EnginePhase) => {
    const count = after[phase].count - before[phase].count;
    return count === 0 ? 0 : (after[phase].totalMs - before[phase].totalMs) / count;
  };
  const held = after.slotHeld.totalMs - before.slotHeld.totalMs;
  const metrics = {
    phaseEncodeMs: round(mean('encode'), 1), phaseWaitForSlotMs: round(mean('waitForSlot'), 0), phaseUploadMs: round(mean('upload'), 1),
    phaseSlotHeldMs: round(mean('slotHeld'), 0), phaseHeldOverServiceMs: round(mean('slotHeld') - timing.meanDurationMs, 1),
    phasePollLagMs: round(timing.meanLateMs, 1), phaseDownloadMs: round(mean('download'), 1), phaseSaveMs: round(mean('save'), 1),
    slotIdleMsPerExecution: round((wallMs * C - held) / timing.executions, 1),
  };
  const text = `encode ${metrics.phaseEncodeMs}, wait for a slot ${metrics.phaseWaitForSlotMs} (ahead of time); slot held ${metrics.phaseSlotHeldMs}` +
    ` = service ${round(timing.meanDurationMs, 0)} + ${metrics.phaseHeldOverServiceMs} (upload ${metrics.phaseUploadMs}, completion seen ${metrics.phasePollLagMs} late);` +
    ` download ${metrics.phaseDownloadMs}, save ${metrics.phaseSaveMs} (after the slot); slot time lost to empty slots ${metrics.slotIdleMsPerExecution}`;
  return { metrics, text };
}
