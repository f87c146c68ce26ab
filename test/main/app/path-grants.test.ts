import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { createThumbnailCache } from '../../../main/core/images/thumbnails';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFileHandlers } from '../../../main/core/app/file-handlers';
import { createPathGrants, grantPathsIn, looksExecutable, type PathGrants } from '../../../main/core/app/path-grants';
import type { HostCapabilities } from '../../../main/core/app/types';
import { contract } from '../../../shared/ipc/contract';
import { createInvokeDispatcher, type InvokeDispatcher } from '../../../shared/ipc/dispatch';

// The symlink and traversal suite for every path-taking channel: a compromised renderer can send any string; the
// host's native call (shell.openPath, showItemInFolder, startDrag, the media route) must only ever see paths the
// core granted, on their real path, and never a program.

let dir: string;
let out: string;
const calls: Array<[string, string]> = [];
const host: HostCapabilities = {
  host: 'electron',
  platform: 'linux',
  reveal: async (path) => void calls.push(['reveal', path]),
  openFolder: async (path) => void calls.push(['openFolder', path]),
  startDrag: (path) => void calls.push(['startDrag', path]),
  previewUrlFor: (path) => {
    calls.push(['previewUrl', path]);
    return `batchroom-media://file/${Buffer.from(path).toString('hex')}`;
  },
};
let grants: PathGrants;
let dispatch: InvokeDispatcher;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'batchroom-grants-')));
  out = join(dir, 'out');
  mkdirSync(join(out, 'Tool.app'), { recursive: true });
  mkdirSync(join(dir, 'private'));
  writeFileSync(join(out, 'result.jpg'), 'jpg');
  writeFileSync(join(out, 'run.sh'), '#!/bin/sh\n');
  writeFileSync(join(out, 'notes.txt'), 'text');
  writeFileSync(join(dir, 'private', 'secret.jpg'), 'secret');
  writeFileSync(join(dir, 'private', 'id_rsa'), 'key');
  symlinkSync(join(dir, 'private', 'secret.jpg'), join(out, 'link-out.jpg'));
  symlinkSync(join(dir, 'private'), join(out, 'link-dir'));
  symlinkSync(join(out, 'run.sh'), join(out, 'innocent.jpg'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeEach(() => {
  calls.length = 0;
  grants = createPathGrants();
  dispatch = createInvokeDispatcher(contract, createFileHandlers(host, grants, createThumbnailCache(join(dir, 'thumbs'))) as never);
  // What the renderer was shown: a batch with its output folder and one item (input + result).
  grantPathsIn({ batches: [{ outputFolder: out }], items: [{ sources: { image: join(out, 'innocent.jpg') }, outputs: [join(out, 'result.jpg'), join(out, 'run.sh'), join(out, 'link-out.jpg')] }] }, grants);
  grants.grant(join(out, 'Tool.app'), 'folder');
});

const CHANNELS = [
  ['files:reveal', 'reveal'],
  ['files:openFolder', 'openFolder'],
  ['files:startDrag', 'startDrag'],
  ['files:previewUrl', 'previewUrl'],
  ['files:thumbnailUrl', 'previewUrl'],
] as const;

const REFUSED: Array<[string, () => string]> = [
  ['a path the core never produced', () => join(dir, 'private', 'id_rsa')],
  ['a folder the core never produced', () => join(dir, 'private')],
  ['traversal out of a granted folder', () => `${out}/../private/secret.jpg`],
  ['traversal through a granted file', () => `${out}/result.jpg/../../private/id_rsa`],
  ['a symlink inside a granted folder pointing out', () => join(out, 'link-dir', 'secret.jpg')],
  ['a granted name that is a symlink to a program', () => join(out, 'innocent.jpg')],
  ['a granted result whose real file is outside (symlink)', () => join(out, 'link-out.jpg')],
  ['a granted shell script', () => join(out, 'run.sh')],
  ['a granted .app bundle', () => join(out, 'Tool.app')],
  ['a relative path', () => 'out/result.jpg'],
  ['a parent-relative path', () => '../../etc/passwd'],
  ['a NUL byte', () => `${out}/result.jpg\0.txt`],
  ['a URL', () => `file://${out}/result.jpg`],
  ['a batchroom:// URL with traversal', () => 'batchroom://app/../../etc/passwd'],
  ['the system password file', () => '/etc/passwd'],
];

describe.each(CHANNELS)('%s refuses what the core did not vouch for', (channel, hostCall) => {
  it.each(REFUSED)('%s', async (_name, path) => {
    const result = await dispatch(channel, { path: path() });
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.code).toBe('forbidden_path');
    expect(calls.filter(([name]) => name === hostCall)).toEqual([]);
  });
});

describe('granted paths reach the host on their real path', () => {
  it.each([
    ['files:reveal', 'result.jpg', 'reveal'],
    ['files:reveal', '', 'reveal'],
    ['files:openFolder', '', 'openFolder'],
    ['files:openFolder', '/', 'openFolder'],
    ['files:startDrag', 'result.jpg', 'startDrag'],
    ['files:previewUrl', 'result.jpg', 'previewUrl'],
  ] as const)('%s out/%s', async (channel, name, hostCall) => {
    const path = name === '/' ? `${out}/` : name ? join(out, name) : out;
    const result = await dispatch(channel, { path });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(calls).toEqual([[hostCall, realpathSync(path)]]);
  });

  it('refuses the wrong kind: a file to open as a folder, a folder to drag or preview', async () => {
    expect(await dispatch('files:openFolder', { path: join(out, 'result.jpg') })).toMatchObject({ ok: false, code: 'forbidden_path' });
    expect(await dispatch('files:startDrag', { path: out })).toMatchObject({ ok: false, code: 'forbidden_path' });
    expect(await dispatch('files:previewUrl', { path: out })).toMatchObject({ ok: false, code: 'forbidden_path' });
    expect(calls).toEqual([]);
  });

  it('a granted file swapped for a symlink after the grant is refused', async () => {
    const swapped = join(out, 'swap.jpg');
    writeFileSync(swapped, 'jpg');
    grants.grant(swapped, 'file');
    expect(await dispatch('files:reveal', { path: swapped })).toMatchObject({ ok: true });
    unlinkSync(swapped);
    symlinkSync(join(dir, 'private', 'secret.jpg'), swapped);
    expect(await dispatch('files:previewUrl', { path: swapped })).toMatchObject({ ok: false, code: 'forbidden_path' });
    expect(await dispatch('files:reveal', { path: swapped })).toMatchObject({ ok: false, code: 'forbidden_path' });
    unlinkSync(swapped);
  });

  it('previews only pictures, judged on the granted real file', async () => {
    grants.grant(join(out, 'notes.txt'), 'file');
    expect(await dispatch('files:previewUrl', { path: join(out, 'notes.txt') })).toMatchObject({ ok: false, code: 'unsupported_media' });
  });

  it('grants a missing output folder by its future real path (created later)', async () => {
    const later = join(out, 'later');
    grants.grant(later, 'folder');
    expect(await dispatch('files:openFolder', { path: later })).toMatchObject({ ok: false, code: 'not_found' });
    mkdirSync(later);
    expect(await dispatch('files:openFolder', { path: later })).toMatchObject({ ok: true });
  });
});

describe('what the core grants', () => {
  it('learns results (and their folders) and inputs; output folders and watched folders it only echoes are no grant', () => {
    const g = createPathGrants();
    grantPathsIn([{ config: { id: 'h', path: '/watch/in', workflowId: 'w', outputFolder: '/watch/out' }, status: {} }], g);
    grantPathsIn({ outputFolder: null, hotFolders: [] }, g);
    grantPathsIn({ items: [{ sources: { a: '/in/a.jpg', b: 'https://example.com/x.jpg' }, outputs: ['/out/a.jpg'] }] }, g);
    // /in/a.jpg, /out/a.jpg and /out (a result was written there); not /watch/in, /watch/out.
    expect(g.size).toBe(3);
  });

  it.each(['Tool.app', 'setup.exe', 'x.BAT', 'a.cmd', 'b.command', 'c.sh', 'd.js', 'e.lnk', 'Tool.app/Contents/MacOS/Tool'])('%s looks executable', (name) => {
    expect(looksExecutable(`/out/${name}`)).toBe(true);
  });

  it.each(['a.jpg', 'b.png', 'folder', 'c.heic'])('%s does not look executable', (name) => {
    expect(looksExecutable(`/out/${name}`)).toBe(false);
  });
});
