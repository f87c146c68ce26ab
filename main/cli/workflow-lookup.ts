import { isAppError } from '../../shared/errors';
import type { WorkflowDetail } from '../../shared/service/model';
import { UsageError } from './errors';
import type { CallChannel } from './session';

/** Edit distance (insert, delete, replace): how far a typed id is from a catalog id. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The catalog id closest to a typo, or null when none is plausibly meant (more than a third of the id differs):
 * "did you mean color-grade?" for `color-grad`, never a random suggestion for `xyz`.
 */
export function closestId(typed: string, ids: readonly string[]): string | null {
  let best: { id: string; distance: number } | null = null;
  for (const id of ids) {
    const distance = editDistance(typed.toLowerCase(), id.toLowerCase());
    if (!best || distance < best.distance) best = { id, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(best.id.length / 3)) ? best.id : null;
}

/**
 * `workflows:get`, but an id the service does not know is a usage error (exit 2) naming the closest id in the
 * catalog: a typo in --workflow is the user's to fix, not a service failure (exit 1).
 */
export async function getWorkflowOrUsage(call: CallChannel, id: string): Promise<WorkflowDetail> {
  try {
    return await call('workflows:get', { id });
  } catch (error) {
    if (!isAppError(error) || error.code !== 'not_found') throw error;
    // The catalog is only a help for the message: when it cannot be read, the plain usage error still stands.
    const ids = await call('workflows:list', {}).then((c) => c.workflows.map((w) => w.id), () => []);
    const guess = closestId(id, ids);
    throw new UsageError(`No workflow "${id}" at this service${guess ? ` — did you mean ${guess}?` : '.'}`, '`batchroom workflows` lists them.');
  }
}
