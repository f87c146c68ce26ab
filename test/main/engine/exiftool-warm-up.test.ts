import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../main/core/engine';
import { createResultMetadataWriter, type ResultMetadataWriter } from '../../../main/core/images/result-metadata';
import { openJournal, type Journal } from '../../../main/core/journal';
import { createFakeClient, FAKE_WORKFLOW } from './fake-client';
import { makeTempDir, waitForBatch, writePhotos } from './helpers';

// ExifTool (a Perl process, ≈ 0.5 s to start) is started once the first photo is accepted, while the service works,
// so the first result is not held up by it; nothing starts it for an estimate alone.

/** The ExifTool processes this test process started (Perl, renamed after the ExifTool script by its watchdog). */
function exiftoolChildren(): number[] {
  if (process.platform === 'win32') return [];
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes('exiftool')).map((line) => Number(line.trim().split(' ')[0]));
}

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('ExifTool warm-up', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let journal: Journal;
  let engine: Engine | undefined;
  let writer: ResultMetadataWriter;
  let input: string;

  beforeEach(async () => {
    dir = await makeTempDir();
    journal = openJournal(join(dir.path, 'state'));
    writer = createResultMetadataWriter({ configDir: join(dir.path, 'state'), creatorTool: 'test' });
    input = join(dir.path, 'in');
    await mkdir(input);
    await writePhotos(input, 2);
  });

  afterEach(async () => {
    await engine?.stop({ graceful: false });
    engine = undefined;
    await writer.end();
    journal.close();
    await dir.cleanup();
  });

  it.skipIf(process.platform === 'win32')('starts the process in the background, once, and keeps it while idle', async () => {
    expect(exiftoolChildren()).toEqual([]);
    writer.warmUp();
    writer.warmUp();
    await until(() => exiftoolChildren().length === 1);
    const [pid] = exiftoolChildren();
    expect(await writer.command(['-ver'])).toMatch(/^\d+\.\d+/);
    // Past the watchdog's 2 s check while idle: the same process answers (it used to be replaced every 2 s).
    await new Promise((r) => setTimeout(r, 2_600));
    expect(await writer.command(['-ver'])).toMatch(/^\d+\.\d+/);
    expect(exiftoolChildren()).toEqual([pid]);
  });

  it('is asked for when the first photo is accepted, before the first result is saved — not by an estimate', async () => {
    const seen: string[] = [];
    const recording: ResultMetadataWriter = {
      ...writer,
      warmUp: () => { seen.push('warm-up'); writer.warmUp(); },
      apply: (path, request) => { seen.push('apply'); return writer.apply(path, request); },
    };
    const hold = { held: true };
    engine = createEngine({ journal, client: createFakeClient({ hold }), concurrency: 1, resultMetadata: recording });
    await engine.start();
    const spec = { workflowId: FAKE_WORKFLOW.id, inputs: { paths: [input] }, output: { outputFolder: join(dir.path, 'out') } };
    await engine.estimate(spec);
    expect(seen).toEqual([]);
    const batch = await engine.createBatch(spec);
    await until(() => seen.length > 0); // accepted, still running at the service
    expect(seen[0]).toBe('warm-up');
    hold.held = false;
    const done = await waitForBatch(engine, batch.id);
    expect(done.counts.saved).toBe(2);
    expect(seen.indexOf('warm-up')).toBeLessThan(seen.indexOf('apply'));
  });
});
