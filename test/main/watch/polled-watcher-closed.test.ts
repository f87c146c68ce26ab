import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { PolledWatcher } from '../../../main/core/watch/polled-watcher';

// A poll thread that fails as (or after) its folder closes: chokidar's close removed every listener, and an 'error'
// emitted with none throws — an uncaught exception in main (seen in CI: folder-poller-stall's failing thread).
describe('a polled watcher whose poll thread fails while it closes', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('drops the late error instead of throwing it, and still reports one while open', async () => {
    dir = await mkdtemp(join(tmpdir(), 'br-polled-closed-'));
    const watcher = new PolledWatcher({ persistent: true, interval: 50, binaryInterval: 50 });
    watcher.add(dir);
    await new Promise<void>((ready) => watcher.once('ready', () => ready()));
    const worker = (watcher.poller as unknown as { worker: Worker }).worker;
    const heard: Error[] = [];
    watcher.on('error', (error) => heard.push(error as Error));
    worker.emit('error', new Error('poll thread failed'));
    expect(heard.map((e) => e.message)).toEqual(['the folder poll stopped (poll thread failed)']);
    // chokidar's close removes the listeners at once; the poll thread ends only after (poller.close()).
    const closing = watcher.close();
    expect(() => worker.emit('error', new Error('poll thread failed while closing'))).not.toThrow();
    await closing;
  });
});
