import { access, stat } from 'node:fs/promises';
import type { DryRunReport } from '../../../shared/hotfolders/model';
import { AppError } from '../../../shared/errors';
import { folderUnavailableReason } from './availability';
import { fingerprintOf } from './baseline-store';
import { hashCacheKey } from './hash-cache';
import type { FolderRuntime } from './folder-runtime';
import { ignoreRulesFor } from './ignore';
import { runLimited } from './limit';
import { predictOutputPath } from './naming';
import type { FileInspector, HotFolderEngine } from './ports';
import { scanFolder } from './scan';

/**
 * What arming (or approving) this folder would do right now, without doing any of it: no activity, no ledger
 * write, no submission. Works whether the folder is armed or not.
 */
export async function dryRunFolder(
  runtime: FolderRuntime,
  deps: { engine: HotFolderEngine; inspector: FileInspector; hashLimit: <R>(fn: () => Promise<R>) => Promise<R>; concurrency: number },
): Promise<DryRunReport> {
  const config = runtime.config;
  const reason = await folderUnavailableReason(config.path);
  if (reason) throw new AppError('unavailable', `${config.path}: ${reason}`);
  const files = await scanFolder(config.path, config.recursive, ignoreRulesFor(config.path, config.outputFolder));
  const verdicts = new Map<string, { kind: 'process' | 'done' | 'unsupported'; reason?: string }>();
  await runLimited(files, deps.concurrency, async (path) => {
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return;
    const classification = await deps.inspector.classify(path);
    if (!classification.supported) return void verdicts.set(path, { kind: 'unsupported', reason: classification.reason });
    if (runtime.pipeline.baseline.has(fingerprintOf(info))) return void verdicts.set(path, { kind: 'done' });
    const contentHash = runtime.pipeline.hashes.get(hashCacheKey(info)) ?? await deps.hashLimit(() => deps.inspector.contentHash(path));
    const done = (await runtime.pipeline.doneOutcome(contentHash)) !== null
      || (await deps.engine.isInFlight?.(contentHash, config.id)) === true;
    verdicts.set(path, { kind: done ? 'done' : 'process' });
  });
  const report: DryRunReport = { path: config.path, toProcess: [], alreadyDone: [], colliding: [], unsupported: [], totalCredits: 0 };
  const candidates = files.filter((path) => verdicts.get(path)?.kind === 'process');
  let index = 0;
  for (const path of files) {
    const verdict = verdicts.get(path);
    if (!verdict) continue;
    if (verdict.kind === 'unsupported') report.unsupported.push({ path, reason: verdict.reason ?? 'unsupported' });
    else if (verdict.kind === 'done') report.alreadyDone.push({ path });
    else {
      index++;
      const output = predictOutputPath({
        root: config.path, source: path, outputFolder: config.outputFolder, template: config.namingTemplate,
        workflowId: config.workflowId, index, total: candidates.length,
      });
      const exists = await access(output).then(() => true, () => false);
      (exists ? report.colliding : report.toProcess).push({ path, output });
    }
  }
  // A collision under 'suffix' or 'overwrite' still runs (and costs); under 'skip' it does not.
  const billable = report.toProcess.length + (config.collisionPolicy === 'skip' ? 0 : report.colliding.length);
  const cost = billable > 0 ? await deps.engine.creditCost(config.workflowId) : 0;
  report.totalCredits = billable * cost;
  return report;
}
