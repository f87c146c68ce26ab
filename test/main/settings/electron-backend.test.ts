import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The real electron-store backend, run in a child process where `import 'electron'` resolves to an empty module
// (vitest cannot mock imports made inside node_modules). Proves the adapter and the repair pipeline fit together.

const ROOT = resolve(__dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'batchroom-estore-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('electron-store settings backend', () => {
  it('reads, repairs and writes <stateDir>/settings.json like the conf backend, and survives a corrupt file', () => {
    const child = spawnSync(
      'node',
      ['--import', 'tsx', '--import', join(__dirname, 'fixtures', 'electron-stub-register.mjs'), join(__dirname, 'fixtures', 'electron-backend-script.ts'), dir],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    expect(child.status, child.stderr).toBe(0);
    const r = JSON.parse(child.stdout.trim().split('\n').at(-1)!);
    expect(r.path).toBe(join(dir, 'settings.json'));
    expect(r.settings).toMatchObject({ theme: 'dark', concurrency: 4, sidecars: true });
    expect(r.warnings).toEqual(['concurrency']);
    expect(r.written).toMatchObject({ version: 2, theme: 'dark', concurrency: 4, sidecars: true });
    expect(r.corruptKinds).toEqual(['corrupt-file']);
    expect(r.corruptTheme).toBe('system');
  });
});
