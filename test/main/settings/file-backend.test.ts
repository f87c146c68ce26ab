import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Conf from 'conf';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SETTINGS_FILE_NAME, sharedStoreOptions } from '../../../main/core/settings/backend';
import { createFileBackend } from '../../../main/core/settings/file-backend';

// The plain-Node settings backend keeps the file exactly as electron-store does inside the app: conf (electron-store's
// base, same read and write code) stands in for it here, in both directions.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'batchroom-file-backend-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const confStore = () => new Conf<Record<string, unknown>>({ ...sharedStoreOptions(dir), configName: SETTINGS_FILE_NAME });

describe('settings file backend', () => {
  it('reads nothing as {} and refuses a file that is not a JSON object', () => {
    const backend = createFileBackend(dir);
    expect(backend.path).toBe(join(dir, 'settings.json'));
    expect(backend.read()).toEqual({});
    writeFileSync(backend.path, '[1, 2]');
    expect(() => backend.read()).toThrow(SyntaxError);
    writeFileSync(backend.path, '{"theme": ');
    expect(() => backend.read()).toThrow(SyntaxError);
  });

  it('writes the whole file atomically, owner-only, readable JSON, leaving no temp file', () => {
    const backend = createFileBackend(join(dir, 'new-state'));
    backend.write({ version: 2, theme: 'dark' });
    backend.write({ version: 2, theme: 'light', concurrency: 4 });
    expect(backend.read()).toEqual({ version: 2, theme: 'light', concurrency: 4 });
    expect(readFileSync(backend.path, 'utf8')).toBe('{\n  "version": 2,\n  "theme": "light",\n  "concurrency": 4\n}\n');
    if (process.platform !== 'win32') expect(statSync(backend.path).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'new-state'))).toEqual(['settings.json']);
  });

  it('reads what the app\'s store wrote, and the app\'s store reads what it wrote, byte for byte', () => {
    const backend = createFileBackend(dir);
    confStore().store = { version: 2, outputFolder: '/photos/out', theme: 'dark' };
    expect(backend.read()).toEqual({ version: 2, outputFolder: '/photos/out', theme: 'dark' });
    const byConf = readFileSync(backend.path, 'utf8');

    rmSync(backend.path);
    backend.write({ version: 2, outputFolder: '/photos/out', theme: 'dark' });
    expect(readFileSync(backend.path, 'utf8')).toBe(byConf);
    expect(confStore().store).toEqual({ version: 2, outputFolder: '/photos/out', theme: 'dark' });
  });
});
