import { describe, expect, it } from 'vitest';
import type { HotFolderState } from '../../../shared/hotfolders/model';
import { PAUSED_BY_USER } from '../../../shared/engine/model';
import { createAttention, type ProgressMode } from '../../../main/electron/attention';
import { translatorFor } from '../../../shared/i18n';
import { batchAttention } from '../../../shared/notify/attention';
import { batch } from './fakes';

function folder(status: Partial<HotFolderState['status']>): HotFolderState {
  return {
    config: { id: 'f1', path: '/in', recursive: false, workflowId: 'wf', parameters: {}, outputFolder: '/out', collisionPolicy: 'suffix', moveOriginals: false, budget: null, enabled: true, existingFiles: 'dry-run', polling: false },
    status: { id: 'f1', state: 'armed', reason: null, processed: 0, queued: 0, failed: 0, lastActivityAt: null, ...status },
  } as HotFolderState;
}

function setup(options: { focused?: boolean; threshold?: number; language?: 'en' | 'de' } = {}) {
  const progress: Array<[number, ProgressMode]> = [];
  const notices: Array<{ title: string; body: string; opens?: string | null }> = [];
  const attention = createAttention({
    setProgress: (fraction, mode) => progress.push([fraction, mode]),
    notify: (title, body) => notices.push({ title, body }),
    notifyOpening: (title, body, opens) => notices.push({ title, body, opens }),
    lowBalanceThreshold: () => options.threshold ?? 50,
    isWindowFocused: () => options.focused ?? false,
    ...(options.language ? { translator: () => translatorFor(options.language!) } : {}),
  });
  const progressEvent = (...batches: ReturnType<typeof batch>[]) => attention.handle('batches:progress', { batches, items: [] });
  return { attention, progress, notices, progressEvent };
}

describe('dock / taskbar progress', () => {
  it('shows the combined progress of running batches and clears it when they finish', () => {
    const { progress, progressEvent } = setup();
    progressEvent(batch({ id: 'a', total: 10, progress: 0.5 }), batch({ id: 'b', total: 30, progress: 0.1 }));
    expect(progress.at(-1)![0]).toBeCloseTo((5 + 3) / 40);
    expect(progress.at(-1)![1]).toBe('normal');
    progressEvent(batch({ id: 'a', state: 'paused', pausedReason: PAUSED_BY_USER, progress: 0.5 }), batch({ id: 'b', state: 'completed', progress: 1 }));
    expect(progress.at(-1)).toEqual([0.5, 'paused']);
    progressEvent(batch({ id: 'a', state: 'cancelled' }));
    expect(progress.at(-1)).toEqual([-1, 'none']);
  });
});

describe('notifications', () => {
  it("shows the core's app:attention, opening its batch; a plain 'done' only while the user looks elsewhere", () => {
    const done = { kind: 'batch-ended', title: 'Batch done — Relight', body: '10 saved · 10 credits', batchId: 'b1', needsAction: false } as const;
    const away = setup({ focused: false });
    away.attention.handle('app:attention', done);
    expect(away.notices).toEqual([{ title: 'Batch done — Relight', body: '10 saved · 10 credits', opens: 'b1' }]);

    const looking = setup({ focused: true });
    looking.attention.handle('app:attention', done);
    expect(looking.notices).toEqual([]);
    looking.attention.handle('app:attention', { ...done, kind: 'batch-paused', title: 'Batch paused: out of credits', needsAction: true });
    expect(looking.notices.map((n) => n.title)).toEqual(['Batch paused: out of credits']);
  });

  it("says the core's app:attention in the app's language from its keys, English by default", () => {
    const done = batchAttention(batch({ id: 'b1' }), batch({ id: 'b1', state: 'completed', counts: { saved: 10, failed: 2 }, creditsSpent: 10 }))!;
    const german = setup({ language: 'de' });
    german.attention.handle('app:attention', done);
    expect(german.notices).toEqual([{ title: 'Stapel fertig – Relight', body: '10 gesichert, 2 fehlgeschlagen · 10 Credits', opens: 'b1' }]);
    const english = setup();
    english.attention.handle('app:attention', done);
    expect(english.notices).toEqual([{ title: 'Batch done — Relight', body: '10 saved, 2 failed · 10 credits', opens: 'b1' }]);
  });

  it('no longer words batch endings and pauses itself (the core says them once, for every host)', () => {
    const { notices, progressEvent } = setup();
    progressEvent(batch({ id: 'a' }), batch({ id: 'b' }));
    progressEvent(batch({ id: 'a', state: 'completed', counts: { saved: 7, unknown: 2 } }), batch({ id: 'b', state: 'paused', pausedReason: 'Insufficient credits', pauseCode: 'insufficient-credits' }));
    expect(notices).toEqual([]);
  });

  it('warns once when the balance crosses below the threshold', () => {
    const { attention, notices } = setup({ threshold: 50 });
    const balance = (apiCredits: number) => attention.handle('balance:changed', { apiCredits, webCredits: { total: 0, breakdown: [] } });
    balance(120);
    balance(40);
    balance(30);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.title).toBe('Low balance');
    balance(200);
    balance(10);
    expect(notices).toHaveLength(2);
  });

  it('reports a folder that became unavailable (its run ending is the core\'s app:attention)', () => {
    const { attention, notices } = setup();
    attention.handle('hotFolders:changed', [folder({ queued: 3, processed: 5 })]);
    attention.handle('hotFolders:changed', [folder({ queued: 0, processed: 8, failed: 0 })]);
    expect(notices).toEqual([]);
    attention.handle('hotFolders:changed', [folder({ state: 'unavailable', reason: 'the drive was disconnected' })]);
    expect(notices.at(-1)).toEqual({ title: 'Hot folder unavailable', body: '/in: the drive was disconnected.' });
  });
});
