import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jpegBytes, removeDir, tempDir } from './fakes';

// Issue 34 item 5 review (pre-existing): a fresh arm with the 'skip' policy cleared the folder's baseline when its
// scan started. A crash mid-scan then left no baseline and no "fresh" marker: the next start took the whole archive
// as added while nobody watched, and submitted (paid for) all of it. Real processes, the real file baseline store.
const CHILD = join(import.meta.dirname, '_baseline-crash-child.ts');
let root: string;
const running = new Set<number>();
beforeEach(async () => { root = await tempDir('br-baseline-crash-'); });
afterEach(async () => {
  for (const pid of running) {
    try { process.kill(-pid, 'SIGKILL'); } catch { /* already gone */ }
  }
  running.clear();
  await removeDir(root);
});

/** Runs the child in its own process group; resolves with its stdout lines once `until` says so (or it exits). */
function runChild(args: string[], until: (line: string) => boolean) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  running.add(child.pid!);
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => { running.delete(child.pid!); resolve(code); }));
  const reached = new Promise<string[]>((resolve) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (until(line)) resolve(lines);
    });
    void exited.then(() => resolve(lines));
  });
  return { child, reached, exited };
}

describe('a fresh arm killed mid-scan', () => {
  it('restarts without submitting any file that was already in the folder', async () => {
    const inbox = join(root, 'in');
    const state = join(root, 'state');
    await mkdir(inbox, { recursive: true });
    for (let i = 0; i < 30; i++) await writeFile(join(inbox, `old-${i}.jpg`), jpegBytes(`archive photo ${i}`));
    const first = runChild([inbox, state, 'first'], (line) => line === 'scanning');
    expect(await first.reached).toContain('scanning');
    process.kill(-first.child.pid!, 'SIGKILL');
    await first.exited;
    const again = runChild([inbox, state, 'restart'], (line) => line.startsWith('{'));
    const lines = await again.reached;
    await again.exited;
    const result = JSON.parse(lines.find((l) => l.startsWith('{')) ?? 'null') as { state: string; submitted: number } | null;
    expect(result).toEqual({ state: 'armed', submitted: 0 });
  }, 90_000);
});
