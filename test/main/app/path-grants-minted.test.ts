import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFileHandlers } from '../../../main/core/app/file-handlers';
import { createPathGrants, grantPathsIn, type PathGrants } from '../../../main/core/app/path-grants';
import type { HostCapabilities } from '../../../main/core/app/types';
import { createThumbnailCache } from '../../../main/core/images/thumbnails';
import { openSettingsStore } from '../../../main/core/settings/store';
import { contract } from '../../../shared/ipc/contract';
import { createInvokeDispatcher, type InvokeDispatcher } from '../../../shared/ipc/dispatch';

// Issue 30 item 2: a compromised renderer can put any path in settings or a batch (`outputFolder`). What the core
// echoes back must not become a grant: only picks, drops and files Batchroom wrote are; a folder grant shows the
// folder, never reads what is in it.

let dir: string;
let home: string;
const calls: Array<[string, string]> = [];
const host: HostCapabilities = {
  host: 'browser',
  platform: 'linux',
  reveal: async (path) => void calls.push(['reveal', path]),
  openFolder: async (path) => void calls.push(['openFolder', path]),
  startDrag: (path) => void calls.push(['startDrag', path]),
  // The browser host registers this path for /media: reaching it is reading the file over HTTP.
  previewUrlFor: (path) => {
    calls.push(['media', path]);
    return `/media/t/${encodeURIComponent(path)}`;
  },
};
let grants: PathGrants;
let dispatch: InvokeDispatcher;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'batchroom-minted-')));
  home = join(dir, 'home');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  mkdirSync(join(home, 'Pictures', 'out'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
  writeFileSync(join(home, '.ssh', 'id_rsa.jpg'), 'private picture');
  writeFileSync(join(home, 'Pictures', 'out', 'holiday.jpg'), 'not written by Batchroom');
  writeFileSync(join(home, 'Pictures', 'out', 'result.jpg'), 'written by Batchroom');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeEach(() => {
  calls.length = 0;
  grants = createPathGrants();
  dispatch = createInvokeDispatcher(contract, createFileHandlers(host, grants, createThumbnailCache(join(dir, 'thumbs'))) as never);
});

describe('settings:update outputFolder', () => {
  it('refuses a file, keeps the setting as it was', () => {
    const store = openSettingsStore({ stateDir: join(dir, 'state-file') });
    expect(() => store.update({ outputFolder: join(home, '.ssh', 'id_rsa') })).toThrow(expect.objectContaining({ code: 'validation', field: 'outputFolder' }));
    expect(store.get().outputFolder).toBeNull();
  });

  it('accepts a folder, and one not created yet', () => {
    const store = openSettingsStore({ stateDir: join(dir, 'state-folder') });
    expect(store.update({ outputFolder: join(home, 'Pictures', 'out') }).outputFolder).toBe(join(home, 'Pictures', 'out'));
    expect(store.update({ outputFolder: join(home, 'Pictures', 'later') }).outputFolder).toBe(join(home, 'Pictures', 'later'));
  });
});

describe('an outputFolder the core echoes is no grant', () => {
  it('settings naming a key file: reveal, drag and preview of it are refused', async () => {
    // What settings:update would have answered, had the store accepted it (an older settings.json, say).
    grantPathsIn({ outputFolder: join(home, '.ssh', 'id_rsa') }, grants);
    grantPathsIn({ outputFolder: join(home, '.ssh', 'id_rsa.jpg') }, grants);
    for (const [channel, name] of [['files:reveal', 'id_rsa'], ['files:startDrag', 'id_rsa'], ['files:previewUrl', 'id_rsa.jpg'], ['files:thumbnailUrl', 'id_rsa.jpg']] as const) {
      expect(await dispatch(channel, { path: join(home, '.ssh', name) }), `${channel} ${name}`).toMatchObject({ ok: false, code: 'forbidden_path' });
    }
    expect(calls).toEqual([]);
  });

  it('settings naming ~/.ssh: open-folder and reveal of it are refused (Batchroom never wrote there)', async () => {
    grantPathsIn({ settings: { outputFolder: join(home, '.ssh') } }, grants);
    expect(await dispatch('files:openFolder', { path: join(home, '.ssh') })).toMatchObject({ ok: false, code: 'forbidden_path' });
    expect(await dispatch('files:reveal', { path: join(home, '.ssh') })).toMatchObject({ ok: false, code: 'forbidden_path' });
    expect(calls).toEqual([]);
  });

  it('an output folder is shown once a result was written inside it, and still reads only that result', async () => {
    const out = join(home, 'Pictures', 'out');
    grantPathsIn({ batches: [{ outputFolder: out }] }, grants);
    expect(await dispatch('files:openFolder', { path: out })).toMatchObject({ ok: false, code: 'forbidden_path' });
    grantPathsIn({ items: [{ outputs: [join(out, 'result.jpg')] }] }, grants);
    expect(await dispatch('files:openFolder', { path: out })).toMatchObject({ ok: true });
    expect(await dispatch('files:previewUrl', { path: join(out, 'result.jpg') })).toMatchObject({ ok: true });
    expect(await dispatch('files:previewUrl', { path: join(out, 'holiday.jpg') })).toMatchObject({ ok: false, code: 'forbidden_path' });
    expect(calls).toEqual([['openFolder', out], ['media', join(out, 'result.jpg')]]);
  });
});

describe('a folder grant shows the folder, never reads through it', () => {
  it('a picked folder: open-folder works, /media of a file inside and of a file with the folder name do not', async () => {
    const out = join(home, 'Pictures', 'out');
    grants.grant(out, 'folder');
    grants.grant(join(home, '.ssh', 'id_rsa.jpg'), 'folder');
    expect(await dispatch('files:openFolder', { path: out })).toMatchObject({ ok: true });
    expect(await dispatch('files:previewUrl', { path: join(out, 'holiday.jpg') })).toMatchObject({ ok: false, code: 'forbidden_path' });
    expect(await dispatch('files:previewUrl', { path: join(home, '.ssh', 'id_rsa.jpg') })).toMatchObject({ ok: false, code: 'forbidden_path' });
    expect(await dispatch('files:reveal', { path: join(home, '.ssh', 'id_rsa.jpg') })).toMatchObject({ ok: false, code: 'forbidden_path' });
    expect(calls).toEqual([['openFolder', out]]);
  });
});
