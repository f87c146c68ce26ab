import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The round trip: a real Node process with the crash writer and the process hooks logs lines with an API key, home
// paths and a photo's name, then throws them in an uncaught error. It still dies as Node makes it die; the state
// folder holds one report with the versions, the OS and the last 200 log lines, and none of the secrets, paths or
// names can be found in it.

const ROOT = join(import.meta.dirname, '..', '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'br-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('crash report round trip', () => {
  it('an uncaught error leaves a scrubbed report in the state folder', () => {
    const home = join(dir, 'home', 'annmarie');
    mkdirSync(home, { recursive: true });
    const stateDir = join(dir, 'state');
    const key = 'sk_live_9fQx2LmP7sTz4KwY8bNc3RdE';
    const password = 'hunter2-Velvet-Otter';
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'crashing-app.ts'), stateDir], {
      cwd: ROOT, encoding: 'utf8', timeout: 60_000,
      env: { ...process.env, HOME: home, USERPROFILE: home, CRASH_TEST_KEY: key, CRASH_TEST_PASSWORD: password },
    });
    // Node's own handling is unchanged: the error is printed and the process exits 1.
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toContain('Cannot save');

    const files = readdirSync(join(stateDir, 'crash-reports'));
    expect(files).toHaveLength(1);
    const file = join(stateDir, 'crash-reports', files[0]!);
    expect(run.stdout).toContain(`report: ${file}`);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    const report = readFileSync(file, 'utf8');

    expect(report).toContain('What: Uncaught exception in the main process');
    expect(report).toContain(`Versions: Batchroom 0.1.0, Node ${process.versions.node}`);
    expect(report).toMatch(/^OS: \S+ \S+ \(\w+\)$/m);
    expect(report).toMatch(/^Error: Cannot save <path>: service said 401 for key sk_live_…3RdE \(studio password/m);
    expect(report).toContain('at Timeout._onTimeout (<app>/test/main/crash/fixtures/crashing-app.ts:');
    // The last 200 lines: steps 50…249 and the lines after them, not step 49.
    const logLines = report.slice(report.indexOf('Last 200 log lines:')).split('\n').filter((l) => l.startsWith('{'));
    expect(logLines).toHaveLength(200);
    expect(logLines[0]).toContain('"message":"step 54"');
    expect(logLines.at(-1)).toContain('last line before the crash');
    expect(report).not.toContain('"step 53"');

    // The grep: no key, no password, no path of the user's, no photo or folder name, no user name.
    for (const needle of [key, key.slice(8), password, home, 'annmarie', 'Users\\\\ann', 'C:\\', 'Pictures', 'Wedding', 'DSC_0042', '.NEF', 'Desktop', 'nas.local/batchroom']) {
      expect(report.includes(needle), `report contains ${needle}`).toBe(false);
    }
  });
});
