import { describe, expect, it } from 'vitest';
import type { BatchEstimate } from '../../../shared/engine/model';
import { AppError } from '../../../shared/errors';
import { estimateWithProgress } from '../../../main/cli/estimate-progress';
import { estimateProgressText } from '../../../main/cli/progress-text';
import type { CliSession } from '../../../main/cli/session';

// `run`'s estimate: its progress on stderr (never stdout), and Ctrl-C cancels it through batches:cancelEstimate.

type Listener = (channel: string, payload: unknown) => void;

function fakeSession(options: { quiet?: boolean } = {}) {
  const listeners = new Set<Listener>();
  const calls: string[] = [];
  let answer!: { resolve: (e: BatchEstimate) => void; reject: (e: Error) => void };
  const session = {
    out: { json: false, quiet: options.quiet === true },
    core: { onEvent: (listener: Listener) => { listeners.add(listener); return () => listeners.delete(listener); } },
    call: async (channel: string) => {
      calls.push(channel);
      if (channel === 'batches:estimate') return new Promise<BatchEstimate>((resolve, reject) => { answer = { resolve, reject }; });
      if (channel === 'batches:cancelEstimate') {
        answer.reject(new AppError('cancelled', 'the estimate was cancelled'));
        return { cancelled: 1 };
      }
      throw new Error(`unexpected ${channel}`);
    },
  } as unknown as CliSession;
  const emit = (done: number, total: number) =>
    listeners.forEach((l) => l('batches:estimateProgress', { estimateId: 1, phase: 'reading', done, total, elapsedMs: 1_500 }));
  return { session, calls, emit, answer: () => answer, listeners };
}

function fakeStream(isTTY: boolean) {
  const written: string[] = [];
  return { stream: { isTTY, columns: 100, write: (text: string) => { written.push(text); return true; } } as unknown as NodeJS.WriteStream, written };
}

describe('the estimate of `batchroom run`', () => {
  it('says how far it is on stderr with --progress (no terminal), and says nothing without it', async () => {
    const fake = fakeSession();
    const { stream, written } = fakeStream(false);
    const pending = estimateWithProgress(fake.session, { workflowId: 'w' } as never, { progress: true, stream });
    await new Promise((r) => setImmediate(r));
    fake.emit(12_345, 100_000);
    fake.emit(12_400, 100_000); // within a second of the last line: not another line
    fake.answer().resolve({ itemCount: 100_000 } as BatchEstimate);
    expect((await pending).itemCount).toBe(100_000);
    expect(written).toEqual(['Reading photos  12,345 / 100,000 (12%) · 2s · Ctrl-C cancels\n']);
    expect(fake.listeners.size).toBe(0);

    const silent = fakeSession();
    const quiet = fakeStream(false);
    const second = estimateWithProgress(silent.session, { workflowId: 'w' } as never, { stream: quiet.stream });
    await new Promise((r) => setImmediate(r));
    silent.emit(1, 2);
    silent.answer().resolve({ itemCount: 2 } as BatchEstimate);
    await second;
    expect(quiet.written).toEqual([]);
  });

  it('redraws one line in place on a terminal and clears it at the end', async () => {
    const fake = fakeSession();
    const { stream, written } = fakeStream(true);
    const pending = estimateWithProgress(fake.session, { workflowId: 'w' } as never, { stream });
    await new Promise((r) => setImmediate(r));
    fake.emit(10, 40);
    fake.emit(20, 40);
    fake.answer().resolve({ itemCount: 40 } as BatchEstimate);
    await pending;
    expect(written).toHaveLength(3);
    expect(written[0]).toMatch(/^\rReading photos {2}10 \/ 40 \(25%\)/);
    expect(written[1]).toMatch(/^\rReading photos {2}20 \/ 40 \(50%\)/);
    expect(written[2]!.trim()).toBe('');
  });

  it('Ctrl-C cancels the estimate (batches:cancelEstimate) and ends as an interruption, nothing spent', async () => {
    const fake = fakeSession();
    const { stream } = fakeStream(false);
    const listening = process.listenerCount('SIGINT');
    const pending = estimateWithProgress(fake.session, { workflowId: 'w' } as never, { stream });
    await new Promise((r) => setImmediate(r));
    process.emit('SIGINT');
    await expect(pending).rejects.toMatchObject({ code: 'cancelled', message: 'Estimate cancelled: nothing was sent, nothing was spent.' });
    expect(fake.calls).toEqual(['batches:estimate', 'batches:cancelEstimate']);
    expect(process.listenerCount('SIGINT')).toBe(listening);
  });

  it('words the scan before the photos are counted', () => {
    expect(estimateProgressText({ phase: 'scanning', done: 0, total: 0, elapsedMs: 3_000 })).toBe('Looking through the folders… · 3s');
  });
});
