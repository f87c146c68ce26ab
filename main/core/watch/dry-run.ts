import { stat } from 'node:fs/promises';
import type { DryRunReport } from '../../../shared/hotfolders/model';
import { AppError } from '../../../shared/errors';
import { folderUnavailableReason } from './availability';
import { fingerprintOf } from './baseline-store';
import { hashCacheKey } from './hash-cache';
import type { FolderRuntime } from './folder-runtime';
import { ignoreRulesFor } from './ignore';
import { folderBatches } from './batches';
import { subfolderOf } from '../media/inside-root';
import { runLimited } from './limit';
import { expectedExtension, planOutputNames, type NamingItem, type PlannedOutput } from '../../../shared/naming';
import { DEFAULT_NAMING_TEMPLATE } from '../../../shared/engine/model';
import { absoluteOf, existingNames, relativeInside } from '../images/output-names';
import type { FileInspector, HotFolderEngine } from './ports';
import { candidatesOf, scanFolderInputs } from './scan';
import { folderBatchSpec } from './submitter';
import { deliverableRelPath, deliverablesOf, summariseDeliverables } from '../../../shared/engine/deliverables';

/**
 * What arming (or approving) this folder would do right now, without doing any of it: no activity, no ledger
 * write, no submission. Works whether the folder is armed or not.
 */
export async function dryRunFolder(
  runtime: FolderRuntime,
  deps: {
    engine: HotFolderEngine; inspector: FileInspector; hashLimit: <R>(fn: () => Promise<R>) => Promise<R>; concurrency: number;
    /** The submitter's batch size: names are planned batch by batch, as they are written. */
    maxBatchSize: number;
  },
): Promise<DryRunReport> {
  const config = runtime.config;
  const reason = await folderUnavailableReason(config.path);
  if (reason) throw new AppError('unavailable', `${config.path}: ${reason}`);
  const scan = await scanFolderInputs(config.path, config.recursive, ignoreRulesFor(config.path, config.outputFolder), config.rawPairs);
  // Files of an unsupported type go through the inspector below like any file (as the armed folder does); the
  // policy's other skips (photos left in sub-folders, links that loop or break) are reported as they are.
  const { files, unsupported: typeSkips } = candidatesOf(scan);
  // The half of a RAW+JPEG pair that is not edited is still sent (the engine pairs the halves within a batch), so it
  // takes a place in the submitter's batches though it gets no name: looked at too when it can move a batch's cut.
  const halves = new Set(scan.skipped.filter((s) => s.rawPair).map((s) => s.path));
  const sentPerSub = new Map<string, number>();
  for (const path of [...files, ...halves]) {
    const rel = subfolderOf(config.path, path);
    sentPerSub.set(rel, (sentPerSub.get(rel) ?? 0) + 1);
  }
  const halvesMatter = [...sentPerSub.values()].some((n) => n > deps.maxBatchSize);
  const verdicts = new Map<string, { kind: 'process' | 'done' | 'unsupported'; reason?: string }>();
  await runLimited(halvesMatter ? [...files, ...halves] : files, deps.concurrency, async (path) => {
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return;
    const classification = await deps.inspector.classify(path);
    if (!classification.supported) return void verdicts.set(path, { kind: 'unsupported', reason: classification.reason });
    if (runtime.pipeline.baseline.has(fingerprintOf(info))) return void verdicts.set(path, { kind: 'done' });
    const photoHash = runtime.pipeline.hashes.get(hashCacheKey(info)) ?? await deps.hashLimit(() => deps.inspector.contentHash(path));
    const contentHash = await runtime.pipeline.unitHashOf(photoHash);
    const done = (await runtime.pipeline.doneOutcome(contentHash)) !== null
      || (await deps.engine.isInFlight?.(contentHash, config.id)) === true;
    verdicts.set(path, { kind: done ? 'done' : 'process' });
  });
  const report: DryRunReport = { path: config.path, toProcess: [], alreadyDone: [], colliding: [], deliverables: [], unsupported: scan.skipped.filter((s) => !typeSkips.has(s)), totalCredits: 0 };
  // Names from the one namer, batch by batch as the submitter will send them (folderBatches, the scan's sorted
  // order): one batch per sub-folder and at most maxBatchSize each, mirrored under the output folder, {index} and its
  // width counted within the batch. Collisions are judged against the output folder now plus what the batches
  // before will have written there.
  const sent = [...files, ...halves].filter((path) => verdicts.get(path)?.kind === 'process').sort();
  const batches = folderBatches(sent, (path) => path, config.path, deps.maxBatchSize)
    .map((batch) => ({ ...batch, items: batch.items.filter((path) => !halves.has(path)) }));
  // Every file each photo becomes (a recipe's deliverables, each in its folder; {capture_date} left as its token, as
  // the estimate lists it): the folder's own batch spec says which, as the submitter will send it.
  const recipe = await runtime.pipeline.recipeCheck();
  const spec = folderBatchSpec(config, [], '', [], recipe?.ok ? recipe.value : undefined);
  const deliverables = deliverablesOf(spec);
  const relOf = (d: number, rel: string) => deliverableRelPath(deliverables[d]!.folder, { job: spec.job, client: spec.client }, rel);
  const written = await existingNames(config.outputFolder, batches.flatMap((b) => deliverables.map((_, d) => relOf(d, b.rel))));
  const protectedNames = relativeInside(config.outputFolder, files);
  const at = new Date();
  const planned = new Map<string, PlannedOutput[]>();
  for (const batch of batches) {
    for (const [d, deliverable] of deliverables.entries()) {
      const namingItems: NamingItem[] = batch.items.map((path, i) => ({
        key: path, sourcePath: path, relDir: relOf(d, batch.rel), index: i + 1, outputs: [{ ext: expectedExtension(path, deliverable.format) }],
      }));
      const plan = planOutputNames(namingItems, {
        template: deliverable.namingTemplate ?? DEFAULT_NAMING_TEMPLATE, workflow: config.workflowId, total: namingItems.length, at,
        policy: config.collisionPolicy, protectedNames,
      }, written);
      for (const item of plan) {
        const output = item.outputs[0]!;
        planned.set(item.key, [...(planned.get(item.key) ?? []), output]);
        if (output.action !== 'skip') written.push(output.relPath);
      }
    }
  }
  report.deliverables = summariseDeliverables(spec);
  for (const path of files) {
    const verdict = verdicts.get(path);
    if (!verdict) continue;
    if (verdict.kind === 'unsupported') report.unsupported.push({ path, reason: verdict.reason ?? 'unsupported' });
    else if (verdict.kind === 'done') report.alreadyDone.push({ path });
    else {
      const [name, ...more] = planned.get(path)!;
      const output = absoluteOf(config.outputFolder, name!.relPath);
      const outputs = more.length > 0 ? { outputs: [output, ...more.map((n) => absoluteOf(config.outputFolder, n.relPath))] } : {};
      (name!.collidedWith === 'existing' ? report.colliding : report.toProcess).push({ path, output, ...outputs });
    }
  }
  // A collision under 'suffix' or 'overwrite' still runs (and costs); under 'skip' it does not.
  const billable = report.toProcess.length + (config.collisionPolicy === 'skip' ? 0 : report.colliding.length);
  const cost = billable > 0 ? await deps.engine.creditCost(config.workflowId) : 0;
  report.totalCredits = billable * cost;
  return report;
}
