import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs script without type declarations
import { electronBinary } from '../../../scripts/start.mjs';

const root = join(import.meta.dirname, '..', '..', '..');

describe('npm start without an Electron binary', () => {
  it.skipIf(electronBinary() !== null)('tries electron\'s installer, then exits 1 pointing to the CLI and the browser UI', () => {
    const cache = mkdtempSync(join(tmpdir(), 'batchroom-electron-cache-'));
    try {
      const result = spawnSync(process.execPath, [join(root, 'scripts/start.mjs')], {
        cwd: root,
        encoding: 'utf8',
        timeout: 60_000,
        // An unreachable mirror and an empty cache: the download fails fast and the same way on every machine.
        env: { ...process.env, ELECTRON_MIRROR: 'http://127.0.0.1:9/', electron_config_cache: cache, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
      });
      expect(result.status).toBe(1);
      expect(result.stdout).toContain('fetching it with electron\'s install script');
      expect(result.stderr).toContain('npx batchroom ui');
      expect(result.stderr).toContain('npx batchroom run');
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
