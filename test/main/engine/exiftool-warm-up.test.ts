import { execFileSync, spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../../main/core/engine';
import { createResultMetadataWriter, watchdogArgs, type ResultMetadataWriter } from '../../../main/core/images/result-metadata';
import { until } from '../../helpers/until';
import { createFakeClient, FAKE_WORKFLOW } from './fake-client';
import { useEngineTestBed, waitForBatch, writePhotos } from './helpers';

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
