import { AppError } from '../../shared/errors';
import { ACCEPTED_IMAGE_EXTENSIONS } from '../../shared/media/input-policy';
import type { HostCapabilities } from '../core/app/types';
import type { MediaRegistry } from './media-protocol';

/** The file dialog offers what the input policy accepts (without the dot, as Electron wants). */
export const IMAGE_EXTENSIONS = ACCEPTED_IMAGE_EXTENSIONS.map((ext) => ext.slice(1));

export interface OpenDialogRequest {
  title?: string;
  properties: Array<'openFile' | 'openDirectory' | 'multiSelections' | 'createDirectory'>;
  filters?: Array<{ name: string; extensions: string[] }>;
}

/** Native abilities as plain functions (entry.ts binds them to dialog, shell, webContents and nativeImage). */
export interface NativeDeps {
  platform: string;
  showOpenDialog(request: OpenDialogRequest): Promise<{ canceled: boolean; filePaths: string[] }>;
  showItemInFolder(path: string): void;
  /** shell.openPath: resolves to an error message, or '' on success. */
  openPath(path: string): Promise<string>;
  /** webContents.startDrag with an icon made from the file (or the app icon); false when there is no window. */
  startDrag(path: string): boolean;
  media: MediaRegistry;
}

/** What the Electron host lends the core: native pickers, Finder/Explorer, drag-out, and the media protocol. */
export function createElectronHost(deps: NativeDeps): HostCapabilities {
  return {
    host: 'electron',
    platform: deps.platform,
    async pickFiles(title) {
      const result = await deps.showOpenDialog({
        title: title ?? 'Add photos',
        properties: ['openFile', 'multiSelections'],
        filters: [{ name: 'Images', extensions: IMAGE_EXTENSIONS }, { name: 'All files', extensions: ['*'] }],
      });
      return result.canceled ? [] : result.filePaths;
    },
    async pickFolder(title) {
      const result = await deps.showOpenDialog({ title: title ?? 'Choose a folder', properties: ['openDirectory', 'createDirectory'] });
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    async reveal(path) {
      deps.showItemInFolder(path);
    },
    async openFolder(path) {
      const error = await deps.openPath(path);
      if (error) throw new AppError('not_found', `Could not open ${path}: ${error}`);
    },
    startDrag(path) {
      if (!deps.startDrag(path)) throw new AppError('unavailable', 'There is no window to drag from.');
    },
    previewUrlFor: (path) => deps.media.urlFor(path),
  };
}
