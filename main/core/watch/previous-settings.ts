import type { HotFolderConfig } from '../../../shared/hotfolders/model';
import { parametersHash } from '../journal/ledger-key';

const MAX_PREVIOUS_SETTINGS = 20;

/**
 * The settings a folder ran with before this save, newest first: a changed workflow or parameters remembers the old
 * pair (so files done with it are not silently done again under the new one), without duplicates, at most 20.
 */
export function previousSettingsAfterSave(before: HotFolderConfig, next: Pick<HotFolderConfig, 'workflowId' | 'parameters'>): HotFolderConfig['previousSettings'] {
  const previous = [...before.previousSettings];
  const old = { workflowId: before.workflowId, parametersHash: parametersHash(before.parameters) };
  const changed = old.workflowId !== next.workflowId || old.parametersHash !== parametersHash(next.parameters);
  if (changed && !previous.some((s) => s.workflowId === old.workflowId && s.parametersHash === old.parametersHash)) previous.unshift(old);
  return previous.slice(0, MAX_PREVIOUS_SETTINGS);
}
