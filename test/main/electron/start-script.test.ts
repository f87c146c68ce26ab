import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs script without type declarations
import { downloadFailureReason, downloadsSkipped, electronBinary } from '../../../scripts/start.mjs';

const root = join(import.meta.dirname, '..', '..', '..');

function start(env: Record<string, string | undefined>) {
  const cache = mkdtempSync(join(tmpdir(), 'batchroom-electron-cache-'));
  try {
    const merged: Record<string, string | undefined> = { ...process.env, electron_config_cache: cache, ...env };
    for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
    return spawnSync(process.execPath, [join(root, 'scripts/start.mjs')], { cwd: root, encoding: 'utf8', timeout: 60_000, env: merged as NodeJS.ProcessEnv });
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

describe('npm start without an Electron binary', () => {
  it.skipIf(electronBinary() !== null)('respects ELECTRON_SKIP_BINARY_DOWNLOAD: no download, only the helpful message', () => {
    const result = start({ ELECTRON_SKIP_BINARY_DOWNLOAD: '1', ELECTRON_MIRROR: 'http://127.0.0.1:9/' });
    expect(result.status).toBe(1);
    expect(result.stdout).not.toContain('fetching');
    expect(result.stderr).toContain('ELECTRON_SKIP_BINARY_DOWNLOAD is set');
    expect(result.stderr).toContain('npx batchroom ui');
    expect(result.stderr).toContain('npx batchroom run');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it.skipIf(electronBinary() !== null)('when the download fails, prints one reason and the two ways in, never a stack', () => {
    // An unreachable mirror and an empty cache: the download fails fast and the same way on every machine.
    const result = start({ ELECTRON_SKIP_BINARY_DOWNLOAD: undefined, ELECTRON_MIRROR: 'http://127.0.0.1:9/' });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('fetching it with electron\'s install script');
    expect(result.stderr).toContain('could not be downloaded');
    expect(result.stderr).toContain('npx batchroom ui');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    [undefined, false], ['', false], ['0', false], ['false', false], ['1', true], ['true', true],
  ])('ELECTRON_SKIP_BINARY_DOWNLOAD=%s skips downloads: %s', (value, skipped) => {
    expect(downloadsSkipped(value === undefined ? {} : { ELECTRON_SKIP_BINARY_DOWNLOAD: value })).toBe(skipped);
  });

  it('reduces a download failure to its reason', () => {
    const output = 'RequestError: getaddrinfo ENOTFOUND github.com\n    at ClientRequest.<anonymous> (/x/got/index.js:1:1)\n    at Object.onceWrapper (node:events:1:1)';
    expect(downloadFailureReason(output)).toBe('getaddrinfo ENOTFOUND github.com');
  });
});
