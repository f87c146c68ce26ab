import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/index';

// The key-leak check: full batches (successes, failed executions, retried 5xx/429, dropped connections and
// a rejected key) through the real CLI with --debug logging, then every byte Batchroom wrote — settings, journal
// (and its WAL), results, sidecars — and every output line is searched for the key.

const ROOT = resolve(__dirname, '../../..');
const KEY = 'sk_test_LEAKcanary_Q7w9Z2x4V6b8N0m1';
const LIVE_KEY = 'sk_live_LEAKcanary_K3j5H7g9F1d3S5a7';
// Any run of the key's secret part long enough to identify it (the masked form keeps only the last 4 characters).
const fragments = (key: string) => {
  const secret = key.replace(/^sk_(live|test)_/, '');
  return [key, secret, secret.slice(0, 10), secret.slice(-10)];
};

let sandbox: RunningSandbox;
let dir: string;
const outputs: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ useEnv: false, executionDurationMs: 150, seed: 11 });
  dir = mkdtempSync(join(tmpdir(), 'batchroom-leak-'));
  mkdirSync(join(dir, 'in'));
  for (let i = 0; i < 6; i += 1) {
    const background = { r: 40 * i, g: 120, b: 200 - 30 * i };
    await sharp({ create: { width: 96, height: 64, channels: 3, background } }).jpeg().toFile(join(dir, 'in', `photo${i}.jpg`));
  }
  // Sidecars on, so that file kind is written and searched too.
  mkdirSync(join(dir, 'state'));
  writeFileSync(join(dir, 'state', 'settings.json'), JSON.stringify({ version: 2, sidecars: true, concurrency: 3 }));
});
afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
  delete childEnv.DISPLAY;
  return new Promise((done, fail) => {
    const child = spawn('node', ['bin/batchroom.mjs', '--state-dir', join(dir, 'state'), '--service-url', sandbox.url, '--debug', ...args], {
      cwd: ROOT,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      outputs.push(stdout, stderr);
      done({ code, stdout, stderr });
    });
  });
}

// --rerun: each step pays for the same photos again on purpose (the done ledger would skip them otherwise).
const runArgs = (out: string) => ['--json', 'run', '--workflow', 'color-grade', '--text', 'look=warm', '--out', join(dir, out), '--yes', '--rerun', join(dir, 'in')];
const summaryOf = (stdout: string) =>
  JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { saved: number; failed: number; unknown: number; skipped: number };

function allFiles(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const path = join(root, name);
    return statSync(path).isDirectory() ? allFiles(path) : [path];
  });
}

describe('the API key never leaves the keychain/environment', () => {
  it('is absent from every file and log line after batches with failures and a rejected key', async () => {
    // 1. A mixed batch: failed executions, 5xx and 429 answers (retried), connections dropped after processing.
    sandbox.setFaults({ executionFailureRate: 0.4, serverErrorRate: 0.15, rateLimitRate: 0.1, dropAfterRate: 0.05 });
    const mixed = await cli(runArgs('out-mixed'), { BATCHROOM_API_KEY: KEY });
    const s1 = summaryOf(mixed.stdout);
    expect(s1.saved + s1.failed + s1.unknown + s1.skipped, mixed.stderr).toBe(6);

    // 2. Every execution fails: the failure path is exercised for sure.
    sandbox.setFaults({ executionFailureRate: 1, serverErrorRate: 0, rateLimitRate: 0, dropAfterRate: 0 });
    const failing = await cli(runArgs('out-failing'), { BATCHROOM_API_KEY: KEY });
    expect(failing.code).toBe(1);
    expect(summaryOf(failing.stdout).failed).toBe(6);

    // 3. A key the service rejects (the sandbox takes only sk_test_ keys): an authentication error, exit 3.
    sandbox.setFaults({ executionFailureRate: 0 });
    const rejected = await cli(runArgs('out-rejected'), { BATCHROOM_API_KEY: LIVE_KEY });
    expect(rejected.code).toBe(3);

    // The debug logs did say something about requests (so the search below looks at real log lines).
    expect(mixed.stderr).toMatch(/service answered/);

    const files = allFiles(dir).filter((f) => !f.startsWith(join(dir, 'in')));
    expect(files.some((f) => f.endsWith('.json') && f.includes('out-mixed'))).toBe(true); // sidecars were written
    expect(files.some((f) => f.includes(join(dir, 'state')) && !f.endsWith('settings.json'))).toBe(true); // the journal
    for (const key of [KEY, LIVE_KEY]) {
      for (const fragment of fragments(key)) {
        for (const [index, text] of outputs.entries()) expect(text, `output #${index}`).not.toContain(fragment);
        for (const file of files) {
          const bytes = readFileSync(file);
          // Text files as UTF-8; SQLite and image bytes also as latin1 and UTF-16 (how a string may sit in a page).
          expect(bytes.includes(Buffer.from(fragment, 'utf8')), file).toBe(false);
          expect(bytes.includes(Buffer.from(fragment, 'utf16le')), file).toBe(false);
        }
      }
    }
  }, 240_000);
});
