import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileHandlers } from '../../../main/core/app/file-handlers';
import { createPathGrants } from '../../../main/core/app/path-grants';
import type { HostCapabilities } from '../../../main/core/app/types';
import { createThumbnailCache } from '../../../main/core/images/thumbnails';
import { contract } from '../../../shared/ipc/contract';
import { createInvokeDispatcher } from '../../../shared/ipc/dispatch';

// files:checkPaths (issue 31 #17): the photos list asks what each typed path is as soon as it is added, so a path
// that does not exist or is not a photo is marked at once instead of becoming a chip counted like a folder.

let dir: string;
const host: HostCapabilities = { host: 'browser', platform: 'linux', previewUrlFor: (path) => `/media/${encodeURIComponent(path)}` };
const dispatch = () => createInvokeDispatcher(contract, createFileHandlers(host, createPathGrants(), createThumbnailCache(join(dir, 'thumbs'))) as never);

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'batchroom-check-paths-')));
  mkdirSync(join(dir, 'shoot'));
  writeFileSync(join(dir, 'shoot', 'IMG_0001.JPG'), 'jpeg bytes');
  writeFileSync(join(dir, 'shoot', 'DSC_0002.NEF'), 'raw bytes');
  writeFileSync(join(dir, 'notes.txt'), 'text');
  writeFileSync(join(dir, '.DS_Store'), 'litter');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('files:checkPaths', () => {
  it('says for each path whether it is a photo, a folder, missing or not a photo', async () => {
    const paths = [
      join(dir, 'shoot'), join(dir, 'shoot', 'IMG_0001.JPG'), join(dir, 'shoot', 'DSC_0002.NEF'), join(dir, 'missing', 'IMG_9.jpg'),
      join(dir, 'notes.txt'), join(dir, '.DS_Store'), join(dir, 'notes.txt', 'below-a-file.jpg'), 'relative/photo.jpg',
    ];
    const answer = await dispatch()('files:checkPaths', { paths });
    expect(answer).toEqual({ ok: true, data: [
      { path: paths[0], kind: 'folder' }, { path: paths[1], kind: 'photo' }, { path: paths[2], kind: 'photo' }, { path: paths[3], kind: 'missing' },
      { path: paths[4], kind: 'not-photo' }, { path: paths[5], kind: 'not-photo' }, { path: paths[6], kind: 'missing' }, { path: paths[7], kind: 'missing' },
    ] });
  });

  it('refuses more paths than one request may carry', async () => {
    const answer = await dispatch()('files:checkPaths', { paths: Array.from({ length: 501 }, (_, n) => join(dir, `${n}.jpg`)) });
    expect(answer).toMatchObject({ ok: false });
  });
});
