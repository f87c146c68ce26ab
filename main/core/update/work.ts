import { basename } from 'node:path';
import type { EventChannelName } from '../../../shared/ipc/contract';
import type { HotFolderState } from '../../../shared/hotfolders/model';

/** The parts of the core that say whether installing now would cut work short. */
export interface WorkSource {
  busyCount(): number;
  readonly hotFolders?: { list(): HotFolderState[] };
  onEvent(listener: (channel: EventChannelName, payload: unknown) => void): () => void;
}

/**
 * Why an update must not be installed now, or null: executions in flight or results downloading (a batch), or an
 * armed hot folder that is scanning or has photos queued. An armed folder with nothing to do does not hold an update
 * back (studios keep folders armed for weeks).
 */
export function workInFlight(source: WorkSource): string | null {
  if (source.busyCount() > 0) return 'a batch is running';
  const folders = source.hotFolders?.list() ?? [];
  const working = folders.filter((f) => f.status.state !== 'disarmed' && f.config.enabled && (f.status.state === 'scanning' || f.status.queued > 0));
  if (working.length === 1) return `the hot folder ${basename(working[0]!.config.path)} has photos in flight`;
  if (working.length > 1) return `${working.length} hot folders have photos in flight`;
  return null;
}

/** Calls `listener` whenever batches or hot folders change (the moments in-flight work can start or end). */
export function onWorkChange(source: WorkSource, listener: () => void): () => void {
  return source.onEvent((channel) => {
    if (channel === 'batches:progress' || channel === 'hotFolders:changed') listener();
  });
}
