import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { APP_VERSION } from '../../../shared/app-info';
import { AppError } from '../../../shared/errors';
import type { DomainHandlers } from '../../../shared/ipc/contract-kit';
import type { appChannels, fileChannels } from '../../../shared/ipc/channels/files';
import type { HostCapabilities } from './types';

/** Previews are for pictures: the media route must never become a way to read any file by asking for its URL. */
const PREVIEWABLE = new Set(['.jpg', '.jpeg', '.png', '.webp', '.gif', '.avif', '.tif', '.tiff', '.heic', '.heif', '.bmp']);

function unsupported(what: string, host: HostCapabilities['host']): never {
  throw new AppError('unsupported', `${what} is not available in the ${host === 'browser' ? 'browser' : host} version of Batchroom.`);
}

/** files:* and app:* over what the host lends; a missing ability answers `unsupported` so the UI offers another way. */
export function createFileHandlers(host: HostCapabilities): DomainHandlers<typeof fileChannels & typeof appChannels> {
  return {
    'files:pickFiles': ({ title }) => (host.pickFiles ? host.pickFiles(title) : unsupported('Choosing files with a dialog', host.host)),
    'files:pickFolder': ({ title }) => (host.pickFolder ? host.pickFolder(title) : unsupported('Choosing a folder with a dialog', host.host)),
    'files:reveal': async ({ path }) => {
      if (!host.reveal) return unsupported('Showing a file in the file manager', host.host);
      await host.reveal(path);
      return { revealed: true };
    },
    'files:openFolder': async ({ path }) => {
      if (!host.openFolder) return unsupported('Opening a folder', host.host);
      await host.openFolder(path);
      return { opened: true };
    },
    'files:startDrag': ({ path }) => {
      if (!host.startDrag) return unsupported('Dragging results out', host.host);
      host.startDrag(path);
      return { started: true };
    },
    'files:previewUrl': async ({ path }) => {
      if (!PREVIEWABLE.has(extname(path).toLowerCase())) throw new AppError('unsupported_media', `No preview for ${extname(path) || 'files without an extension'}.`);
      const info = await stat(path).catch(() => null);
      if (!info?.isFile()) throw new AppError('not_found', `No such file: ${path}`);
      return { url: host.previewUrlFor(path) };
    },
    'app:info': () => ({ version: APP_VERSION, host: host.host === 'electron' ? 'electron' : 'browser', platform: host.platform }),
  };
}
