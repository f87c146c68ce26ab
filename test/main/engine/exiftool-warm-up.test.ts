import { execFileSync, spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../../main/core/engine';
import { createResultMetadataWriter, MetadataWriterEnded, watchdogArgs, type ResultMetadataWriter } from '../../../main/core/images/result-metadata';
import { until } from '../../helpers/until';
import { createFakeClient, FAKE_WORKFLOW } from './fake-client';
import { listFilesDeep, tempFilesIn, useEngineTestBed, waitForBatch, writePhotos } from './helpers';

// ExifTool (a Perl process, ≈ 0.5 s to start) is started once the first photo is accepted, while the service works,
// so the first result is not held up by it; nothing starts it for an estimate alone.

/** The ExifTool processes this test process started (Perl, renamed after the ExifTool script by its watchdog). */
function exiftoolChildren(): number[] {
  if (process.platform === 'win32') return [];
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes('exiftool')).map((line) => Number(line.trim().split(' ')[0]));
}

/** Running (an exited process not yet reaped — a zombie — is not). */
function running(pid: number): boolean {
  try {
    return !execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim().startsWith('Z');
  } catch {
    return false; // ps exits 1 for no such process
  }
}

describe('ExifTool warm-up', () => {
  const bed = useEngineTestBed();
  let writer: ResultMetadataWriter;

  beforeEach(async () => {
    writer = createResultMetadataWriter({ configDir: join(bed.dir.path, 'state'), creatorTool: 'test' });
    await writePhotos(bed.input, 2);
  });

  // Runs before the bed's afterEach (vitest runs after-hooks last registered first): the engine stops before the
  // writer it uses ends, and the journal closes after both.
  afterEach(async () => {
    await bed.stopEngine();
    await writer.end();
  });

  it.skipIf(process.platform === 'win32')('starts the process in the background, once, and keeps it while idle', async () => {
    expect(exiftoolChildren()).toEqual([]);
    writer.warmUp();
    writer.warmUp();
    await until(() => exiftoolChildren().length === 1, 'one ExifTool process');
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
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client: createFakeClient({ hold }), concurrency: 1, resultMetadata: recording }));
    await engine.start();
    const spec = { workflowId: FAKE_WORKFLOW.id, inputs: { paths: [bed.input] }, output: { outputFolder: join(bed.dir.path, 'out') } };
    await engine.estimate(spec);
    expect(seen).toEqual([]);
    const batch = await engine.createBatch(spec);
    await until(() => seen.length > 0, 'the engine to call the writer'); // accepted, still running at the service
    expect(seen[0]).toBe('warm-up');
    hold.held = false;
    const done = await waitForBatch(engine, batch.id);
    expect(done.counts.saved).toBe(2);
    expect(seen.indexOf('warm-up')).toBeLessThan(seen.indexOf('apply'));
  });

  it('is not started again once ended', async () => {
    writer.warmUp();
    await until(() => exiftoolChildren().length === 1, 'one ExifTool process');
    await writer.end();
    expect(exiftoolChildren()).toEqual([]);
    writer.warmUp(); // an accept that arrived while the engine stopped: nobody would end this one
    await new Promise((r) => setTimeout(r, 1_000));
    expect(exiftoolChildren()).toEqual([]);
  });

  it('is not started again by a write or a command after end: each rejects as ended', async () => {
    const [photo] = await writePhotos(bed.dir.path, 1, { prefix: 'result' });
    writer.warmUp();
    await until(() => exiftoolChildren().length === 1, 'one ExifTool process');
    await writer.end();
    const request = { source: null, policy: 'keep' as const, width: 96, height: 64, provenance: {
      workflowId: 'w', workflowName: 'W', parameters: {}, executionId: 'exe_1', creditsCharged: 1, sourceName: 'a.jpg', sourceSha256: null,
    } };
    await expect(writer.apply(photo!, request)).rejects.toBeInstanceOf(MetadataWriterEnded);
    await expect(writer.command(['-ver'])).rejects.toBeInstanceOf(MetadataWriterEnded);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(exiftoolChildren()).toEqual([]);
  });

  // A save past its download when the engine stops without waiting: the stop gives it a moment, then ends ExifTool;
  // the save must neither start another ExifTool nor place the result without its metadata, nor fail the item — it
  // is abandoned (temp removed, item left downloading) and the next start saves it, with its metadata, once.
  it('a save reaching its metadata after a non-graceful stop is abandoned, starts no ExifTool, and is saved on the next start', { timeout: 30_000 }, async () => {
    let reached = false;
    let release = () => {};
    const gated: ResultMetadataWriter = {
      ...writer,
      apply: async (path, request) => {
        reached = true;
        await new Promise<void>((r) => { release = r; });
        return writer.apply(path, request);
      },
    };
    const client = createFakeClient();
    const one = join(bed.dir.path, 'one');
    const out = join(bed.dir.path, 'out');
    await mkdir(one);
    await writePhotos(one, 1);
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1, resultMetadata: gated }));
    await engine.start();
    const batch = await engine.createBatch({ workflowId: FAKE_WORKFLOW.id, inputs: { paths: [one] }, output: { outputFolder: out } });
    await until(() => reached, 'the save to reach its metadata');
    await bed.stopEngine();
    release(); // the save goes on after the stop ended ExifTool
    await new Promise((r) => setTimeout(r, 1_000));
    expect(exiftoolChildren()).toEqual([]);
    expect(await tempFilesIn(out)).toEqual([]);
    expect(await listFilesDeep(out)).toEqual([]);
    expect(bed.journal.listItems({ batchId: batch.id }).items).toMatchObject([{ state: 'downloading', reason: null, pendingTemp: null, outputs: [] }]);

    writer = createResultMetadataWriter({ configDir: join(bed.dir.path, 'state'), creatorTool: 'test' });
    const next = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1, resultMetadata: writer }));
    await next.start();
    const done = await waitForBatch(next, batch.id);
    expect(done.counts.saved).toBe(1);
    expect(client.executeCalls()).toBe(1);
    const saved = next.listItems({ batchId: batch.id }).items;
    expect(saved.map((i) => i.reason)).toEqual([null]); // no "metadata not written"
    expect(await listFilesDeep(out)).toHaveLength(1);
    expect(await writer.command(['-s3', '-XMP-xmp:CreatorTool', saved[0]!.outputs[0]!])).toMatch(/^test/);
  });

  it('is not asked for by an accept that arrives after the engine stopped', async () => {
    const seen: string[] = [];
    const recording: ResultMetadataWriter = { ...writer, warmUp: () => { seen.push('warm-up'); writer.warmUp(); } };
    const client = createFakeClient({ hold: { held: true } });
    const execute = client.execute.bind(client);
    let sent = false;
    let answer = () => {};
    client.execute = async (workflow, request, opts) => {
      sent = true;
      await new Promise<void>((r) => { answer = r; });
      return execute(workflow, request, opts);
    };
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1, resultMetadata: recording }));
    await engine.start();
    await engine.createBatch({ workflowId: FAKE_WORKFLOW.id, inputs: { paths: [bed.input] }, output: { outputFolder: join(bed.dir.path, 'out') } });
    await until(() => sent, 'the execute request sent');
    await engine.stop({ graceful: false });
    bed.engine = undefined;
    answer(); // accepted (and charged) after the stop
    await until(() => client.executeCalls() === 1, 'the held execute to go through');
    await new Promise((r) => setTimeout(r, 200));
    expect(seen).toEqual([]);
  });

  // The watchdog's alarm is a safe (deferred) signal: its check runs between two Perl operations, never in signal
  // context in the middle of one. Seen from outside: orphaned while blocked in a read that stays open, the process
  // keeps waiting (an unsafe handler would exit from inside the read after ≈ 2 s), and ends as soon as the read returns.
  it.skipIf(process.platform === 'win32')('checks for its parent between Perl operations, not inside them', { timeout: 20_000 }, async () => {
    const script = join(bed.dir.path, 'reads-a-line.pl');
    await writeFile(script, '$| = 1; print "reading\\n"; my $line = <STDIN>; sleep 30;\n');
    // A shell in between, killed below, so that the process loses the parent it started with; its input (fd 3 here)
    // stays open in this process.
    const shell = spawn('sh', ['-c', 'perl "$@" 0<&3 3<&- & echo $!; wait', 'sh', ...watchdogArgs(script, [])], { stdio: ['ignore', 'pipe', 'inherit', 'pipe'] });
    let out = '';
    shell.stdout!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
    await until(() => out.includes('reading'), 'the script to block in its read'); // the watchdog has taken note of its parent
    const pid = Number(out.split('\n')[0]);
    try {
      shell.kill('SIGKILL');
      await new Promise((r) => setTimeout(r, 3_500));
      expect(running(pid)).toBe(true);
      (shell.stdio[3] as Writable).write('next command\n');
      await until(() => !running(pid), 'the orphaned script to end', { timeoutMs: 5_000 });
    } finally {
      if (running(pid)) process.kill(pid, 'SIGKILL');
    }
  });
});
