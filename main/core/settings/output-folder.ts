import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { AppError } from '../../../shared/errors';

/**
 * An output folder set through the settings (`settings:update`, the CLI) must be a folder: a file there
 * (`~/.ssh/id_rsa`) would be offered to the renderer as the place Batchroom writes to. A folder that does not exist
 * yet is fine (created with the first result); anything else that exists is refused. Synchronous because the store's
 * `update` is.
 */
export function assertOutputFolder(path: string | null | undefined): void {
  if (typeof path !== 'string') return;
  let isFolder = true;
  try {
    isFolder = statSync(path).isDirectory();
  } catch {
    // Missing (or unreadable until created): the engine reports an unwritable folder when it saves.
  }
  if (!isFolder) throw new AppError('validation', `The output folder must be a folder, not a file: ${basename(path)}`, { field: 'outputFolder' });
}
