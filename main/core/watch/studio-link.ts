import { join } from 'node:path';
import { subfolderOf } from '../media/inside-root';
import type { Logger } from '../log';
import type { Ledger } from '../studio/ledger';
import type { TakenOver } from '../studio/pg-instances';
import type { StudioLedger } from '../studio/studio-ledger';
import { studioFolderKey } from './claim-step';
import type { FolderRuntime } from './folder-runtime';
import type { HotFolderEngine } from './ports';
import { folderBatchSpec } from './submitter';

// Studio mode's side of the hot-folder manager: the ledger's reachability shown on every folder, files another
// instance held looked at again once it lets go, and the claims of an instance that died taken over — followed
// when their execution id is known, claimed again when they were never sent, reported when the submit's outcome
// is unknown (never resubmitted: it may have been charged).

export function isStudioLedger(ledger: Ledger): ledger is StudioLedger {
  return ledger.shared && 'onTakeover' in ledger;
}

export interface StudioLinkDeps {
  ledger: StudioLedger;
  engine: HotFolderEngine;
  runtimes: () => FolderRuntime[];
  logger: Logger;
  /** How often files held elsewhere are looked at again (and the folders' scopes refreshed). */
  recheckMs: number;
}

export function linkStudio(deps: StudioLinkDeps): () => void {
  const { ledger, logger } = deps;
  const armed = () => deps.runtimes().filter((r) => r.armed);
  const refreshScopes = () => ledger.setScopes(armed().map((r) => ({
    folderKey: studioFolderKey(r.config), workflowId: r.config.workflowId, parametersHash: r.pipeline.parametersHash,
  })));

  const offReach = ledger.onReachability((reachable) => {
    for (const runtime of armed()) runtime.pipeline.claims.reachable(reachable);
  });
  const offTakeover = ledger.onTakeover((items) => takeOver(deps, armed(), items));
  const timer = setInterval(() => {
    refreshScopes();
    for (const runtime of armed()) void runtime.pipeline.claims.recheck();
  }, deps.recheckMs);
  timer.unref();
  refreshScopes();
  logger.info('studio mode: hot folders claim through the shared ledger', { ledger: ledger.describe });
  return () => {
    clearInterval(timer);
    offReach();
    offTakeover();
  };
}

async function takeOver(deps: StudioLinkDeps, runtimes: FolderRuntime[], items: TakenOver[]): Promise<void> {
  const follow = new Map<FolderRuntime, TakenOver[]>();
  for (const item of items) {
    const runtime = runtimes.find((r) => studioFolderKey(r.config) === item.folderKey && r.config.workflowId === item.workflowId
      && r.pipeline.parametersHash === item.parametersHash)
      ?? runtimes.find((r) => studioFolderKey(r.config) === item.folderKey);
    if (!runtime) continue;
    const path = join(runtime.config.path, ...item.relPath.split('/'));
    if (item.action === 'released') void runtime.pipeline.consider(path, 'scan');
    else if (item.action === 'unknown') {
      runtime.status.failed++;
      runtime.activity('failed', path, `unknown — check the provider's dashboard: the instance on ${item.previousHost} stopped while submitting it (it may have been charged); not resubmitted`);
    } else follow.set(runtime, [...(follow.get(runtime) ?? []), item]);
  }
  for (const [runtime, list] of follow) {
    // One batch per sub-folder, as the folder itself would have sent them.
    const bySub = new Map<string, TakenOver[]>();
    for (const item of list) {
      const rel = subfolderOf(runtime.config.path, join(runtime.config.path, item.relPath));
      bySub.set(rel, [...(bySub.get(rel) ?? []), item]);
    }
    for (const [rel, group] of bySub) {
      const paths = group.map((i) => join(runtime.config.path, ...i.relPath.split('/')));
      try {
        if (!deps.engine.adopt) throw new Error('this engine cannot follow executions of another instance');
        const { batchId } = await deps.engine.adopt(folderBatchSpec(runtime.config, paths, rel),
          group.map((i, n) => ({ path: paths[n]!, executionId: i.executionId!, credits: i.credits })));
        for (const [n, i] of group.entries()) {
          runtime.activity('queued', paths[n]!, `taken over from ${i.previousHost}: following its execution ${i.executionId} (batch ${batchId}), not resubmitted`);
        }
      } catch (error) {
        deps.logger.error('could not follow executions taken over from another instance', { count: group.length, error: (error as Error).message });
        for (const path of paths) runtime.activity('failed', path, `taken over, but its execution could not be followed here: ${(error as Error).message}`);
      }
    }
  }
}
