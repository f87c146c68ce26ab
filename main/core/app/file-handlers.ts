import { stat } from 'node:fs/promises';
import pLimit from 'p-limit';
import { basename, extname, isAbsolute } from 'node:path';
import { APP_VERSION } from '../../../shared/app-info';
import { AppError } from '../../../shared/errors';
import type { DomainHandlers } from '../../../shared/ipc/contract-kit';
import type { appChannels, fileChannels, PathKind } from '../../../shared/ipc/channels/files';
import type { ThumbnailCache } from '../images/thumbnails';
import type { ViewableOriginals } from '../images/viewable';
import { classifyInputName, RAW_EXTENSIONS } from '../../../shared/media/input-policy';
import type { PathGrants } from './path-grants';
import type { HostCapabilities } from './types';

/** Previews are for pictures: the media route must never become a way to read any file by asking for its URL. */
const PREVIEWABLE = new Set(['.jpg', '.jpeg', '.png', '.webp', '.gif', '.avif', '.tif', '.tiff', '.heic', '.heif', '.bmp', ...RAW_EXTENSIONS]);

/**
 * What a typed path is, judged as the batch judges inputs (a folder is looked in, a file by its name: classifyInputName).
 * No grant is needed or made: a renderer may already name any path in an estimate, whose skipped list says as much;
 * nothing of the file is read.
 */
async function pathKindOf(path: string): Promise<PathKind> {
  if (!isAbsolute(path) || path.includes('\0')) return 'missing';
  try {
    const info = await stat(path);
    if (info.isDirectory()) return 'folder';
    return info.isFile() && classifyInputName(basename(path)).ok ? 'photo' : 'not-photo';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'unreadable';
  }
}

function unsupported(what: string, host: HostCapabilities['host']): never {
  throw new AppError('unsupported', `${what} is not available in the ${host === 'browser' ? 'browser' : host} version of Batchroom.`);
}

/**
 * files:* and app:* over what the host lends; a missing ability answers `unsupported` so the UI offers another way.
 * Every path the renderer names must be one the core granted (`grants`), checked on its real path; the host only
 * ever receives that real path, so a symlink swapped in afterwards cannot redirect it.
 */
export function createFileHandlers(host: HostCapabilities, grants: PathGrants, thumbnails: ThumbnailCache, viewable?: ViewableOriginals): DomainHandlers<typeof fileChannels & typeof appChannels> {
  return {
    'files:pickFiles': async ({ title }) => {
      if (!host.pickFiles) return unsupported('Choosing files with a dialog', host.host);
      const picked = await host.pickFiles(title);
      for (const path of picked) grants.grant(path, 'file');
      return picked;
    },
    'files:pickFolder': async ({ title }) => {
      if (!host.pickFolder) return unsupported('Choosing a folder with a dialog', host.host);
      const picked = await host.pickFolder(title);
      if (picked) grants.grant(picked, 'folder');
      return picked;
    },
    'files:reveal': async ({ path }) => {
      if (!host.reveal) return unsupported('Showing a file in the file manager', host.host);
      await host.reveal(await grants.check(path, 'reveal'));
      return { revealed: true };
    },
    'files:openFolder': async ({ path }) => {
      if (!host.openFolder) return unsupported('Opening a folder', host.host);
      await host.openFolder(await grants.check(path, 'open-folder'));
      return { opened: true };
    },
    'files:startDrag': async ({ path }) => {
      if (!host.startDrag) return unsupported('Dragging results out', host.host);
      host.startDrag(await grants.check(path, 'drag'));
      return { started: true };
    },
    'files:previewUrl': async ({ path }) => {
      const real = await grants.check(path, 'preview');
      // The type is judged on the real file: `photo.jpg` → `notes.txt` is not a picture.
      if (!PREVIEWABLE.has(extname(real).toLowerCase())) throw new AppError('unsupported_media', `No preview for ${extname(real) || 'files without an extension'}.`);
      // A RAW is shown as its embedded preview (what is uploaded), never as the sensor file itself.
      const shown = viewable ? await viewable.get(real) : real;
      if (!shown) throw new AppError('unsupported_media', nothingToShow(real));
      return { url: host.previewUrlFor(shown) };
    },
    'files:thumbnailUrl': async ({ path }) => {
      const real = await grants.check(path, 'preview');
      if (!PREVIEWABLE.has(extname(real).toLowerCase())) return { url: null };
      const shown = viewable ? await viewable.get(real) : real;
      const thumbnail = shown ? await thumbnails.get(shown) : null;
      return { url: thumbnail ? host.previewUrlFor(thumbnail) : null };
    },
    // A few at a time: 500 stats at once on a hung network share would hold every libuv thread the engine needs too.
    'files:checkPaths': async ({ paths }) => {
      const limit = pLimit(8);
      return Promise.all(paths.map((path) => limit(async () => ({ path, kind: await pathKindOf(path) }))));
    },
    'app:info': () => ({ version: APP_VERSION, host: host.host === 'electron' ? 'electron' : 'browser', platform: host.platform }),
  };
}

/** Why a file has no preview, in words that fit it: a RAW without a usable preview, or a file that is no picture. */
function nothingToShow(path: string): string {
  if (RAW_EXTENSIONS.includes(extname(path).toLowerCase())) return 'This RAW file has no embedded preview to show.';
  return `${basename(path)} cannot be shown: it is not a picture Batchroom can read (damaged, too large, or another type under this name).`;
}
