import type { Plan } from './planner';

/**
 * Try first: `n` of the runnable items, spread evenly across the batch (the first, middle and last shoot, not three
 * frames of the first), renumbered; everything else is left out of this batch, to be run by "Continue".
 */
export function trialOf(plan: Plan, n: number): Plan {
  const runnable = plan.items.filter((i) => i.state === 'pending').sort((a, b) => a.position - b.position);
  if (runnable.length <= n) return { ...plan, trial: { tried: runnable.length, rest: 0 } };
  const picked = Array.from({ length: n }, (_, i) => runnable[Math.floor(((i + 0.5) * runnable.length) / n)]!);
  const items = picked.map((item, position) => ({ ...item, position }));
  const keys = new Map([...plan.keys].filter(([id]) => items.some((i) => i.id === id)));
  const following = plan.following.filter((f) => picked.some((i) => i.displayName === f.path || Object.values(i.sources).includes(f.path)));
  return {
    items, workCount: items.length, skipped: [], duplicates: [], keys, alreadyDone: plan.alreadyDone, resultsGone: [], following,
    trial: { tried: n, rest: plan.workCount - n },
  };
}
