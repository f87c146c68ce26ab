import { resolve, sep } from 'node:path';
import type { BatchSpecInput } from '../../shared/engine/model';
import { recipeFingerprint } from '../../shared/recipes/fingerprint';
import type { Recipe } from '../../shared/recipes/recipe';
import type { WorkflowParameters } from '../../shared/service/model';
import { UsageError } from './errors';
import { sessionAccount } from './recipe-run';
import type { CliSession } from './session';

// The CLI's Continue is the same `run --recipe` command without --try. The app's Continue compares the tried batch's
// fingerprint with the one it is about to pay for (docs/recipes.md); so does this: the recipe may have been edited,
// or a flag changed, between the trial and now, and then the rest (and the tried photos, whose done-ledger key no
// longer matches) would be paid for with settings nobody looked at. Said part by part, then asked (a terminal) or
// refused without --yes (exit 2, like any spend that cannot be confirmed).

/** Trials looked at, newest first: a Continue follows its trial, not one from months ago. */
const RECENT_TRIALS = 20;

export interface TrialChange {
  batchId: string;
  tried: string;
  now: string;
  /** What changed, one line each: `texts.look: "warm" → "cold"`, `workflow: a → b`. */
  changes: string[];
}

const show = (value: unknown): string => (value === undefined ? '(not set)' : Array.isArray(value) ? value.join(', ') || '(none)' : JSON.stringify(value));
const SECTIONS = ['texts', 'switchSelections', 'globalOverrides'] as const;

/** The fields whose values differ between what was tried and what is sent now, `section.field: before → after`. */
export function parameterChanges(before: WorkflowParameters, after: WorkflowParameters): string[] {
  const lines: string[] = [];
  for (const section of SECTIONS) {
    const a = (before[section] ?? {}) as Record<string, unknown>;
    const b = (after[section] ?? {}) as Record<string, unknown>;
    for (const id of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      if (JSON.stringify(a[id]) !== JSON.stringify(b[id])) lines.push(`${section}.${id}: ${show(a[id])} → ${show(b[id])}`);
    }
  }
  return lines;
}

/** Whether a tried item was one of this run's photos: one of its sources is a given path or inside a given folder. */
function inside(source: string, roots: readonly string[]): boolean {
  const path = resolve(source);
  return roots.some((root) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep));
}

/**
 * The newest trial of `recipe` (a try-first batch made from a recipe of that name) on these photos whose fingerprint
 * is not the one `spec` pays for, with what changed; null when there is none or it is the same edit.
 */
export async function changedTrial(session: CliSession, recipe: Recipe, spec: BatchSpecInput, paths: readonly string[]): Promise<TrialChange | null> {
  const now = spec.recipe?.fingerprint;
  if (!now) return null;
  const roots = paths.map((p) => resolve(p));
  const trials = (await session.call('batches:list', {}))
    .filter((b) => b.trialRest !== null && b.trialRest > 0)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .slice(0, RECENT_TRIALS);
  for (const trial of trials) {
    const { recipe: made, sent = null } = await session.call('recipes:ofBatch', { batchId: trial.id });
    if (!made || made.name.toLowerCase() !== recipe.name.toLowerCase()) continue;
    const { items } = await session.call('batches:items', { batchId: trial.id, offset: 0, limit: 100 });
    if (!items.some((item) => Object.values(item.sources).some((source) => inside(source, roots)))) continue;
    if (made.fingerprint === now) return null;
    return { batchId: trial.id, tried: made.fingerprint, now, changes: whatChanged(made.fingerprint, sent, spec, recipe, sessionAccount(session)) };
  }
  return null;
}

function whatChanged(tried: string, sent: { workflowId: string; parameters: WorkflowParameters } | null, spec: BatchSpecInput,
  recipe: Recipe, account: string): string[] {
  if (!sent) return ['what was tried is not known here any more (its batch is gone from the journal)'];
  const parameters = spec.parameters ?? {};
  const lines = [
    ...(sent.workflowId === spec.workflowId ? [] : [`workflow: ${sent.workflowId} → ${spec.workflowId}`]),
    ...parameterChanges(sent.parameters, parameters),
  ];
  // The fingerprint covers the fixed images' contents and the account too; the journal keeps neither, so when the
  // tried workflow and parameters with today's images and account are still not the tried fingerprint, one of those changed.
  if (recipeFingerprint({ workflowId: sent.workflowId, parameters: sent.parameters, fixedImages: recipe.fixedImages }, account) !== tried) {
    lines.push('a fixed image\'s content or the service account (key or service URL)');
  }
  return lines;
}

/**
 * Before a `run --recipe` without --try spends: a trial of the same recipe on these photos with another fingerprint
 * is said (stderr, or a `trialChanged` record), then asked on a terminal; without one and without --yes, refused.
 * Returns false when the user said no.
 */
export async function confirmContinue(session: CliSession, change: TrialChange | null, yes: boolean | undefined,
  ask: (question: string) => Promise<boolean>): Promise<boolean> {
  if (!change) return true;
  const { out } = session;
  const head = `This recipe is not what was tried in batch ${change.batchId.slice(0, 8)}: what it sends now changed since`;
  if (out.json) out.record({ type: 'trialChanged', batchId: change.batchId, tried: change.tried, fingerprint: change.now, changes: change.changes });
  else {
    process.stderr.write(`${head}:\n`);
    for (const line of change.changes) process.stderr.write(`  ${line}\n`);
  }
  if (yes) return true;
  if (!process.stdin.isTTY) {
    throw new UsageError(`${head} (${change.changes.join('; ')}). Nothing was sent.`,
      'Run again with --yes to run the rest with what the recipe sends now (the tried photos are sent again too), or run it with the tried settings.');
  }
  return ask('Run the rest with what the recipe sends now (the tried photos are sent again too)? [y/N] ');
}
