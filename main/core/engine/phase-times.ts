// Where an execution's time goes, summed over the engine's life, so the bench can show what separates a batch from
// the service's bound (N·L/C): encode and wait-for-slot happen ahead of time; upload, the execution itself and the
// time until its completion is seen hold a slot; download and save happen after the slot is free again.

export const ENGINE_PHASES = ['encode', 'waitForSlot', 'upload', 'slotHeld', 'download', 'save'] as const;
export type EnginePhase = (typeof ENGINE_PHASES)[number];

export type PhaseTotals = Record<EnginePhase, { count: number; totalMs: number }>;

export function emptyPhaseTotals(): PhaseTotals {
  return Object.fromEntries(ENGINE_PHASES.map((phase) => [phase, { count: 0, totalMs: 0 }])) as PhaseTotals;
}

export function addPhase(totals: PhaseTotals, phase: EnginePhase, ms: number): void {
  totals[phase].count += 1;
  totals[phase].totalMs += Math.max(0, ms);
}
