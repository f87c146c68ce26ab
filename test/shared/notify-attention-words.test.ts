import { describe, expect, it } from 'vitest';
import { translatorFor } from '../../shared/i18n';
import { batchAttention, hotFolderRunAttention, type Attention } from '../../shared/notify/attention';
import { attentionText } from '../../shared/notify/attention-words';
import type { BatchSummary, PauseCode } from '../../shared/engine/model';

// The core's notifications as message keys (issue 33 #2): a host words them in the app's language from the `native`
// catalog; in English the keys say exactly the sentence the core writes for the CLI and the logs.

type Summary = Parameters<typeof batchAttention>[1];
const summary = (patch: Partial<Summary> = {}): Summary => ({
  id: 'b1', workflowName: 'Relight', state: 'running', pauseCode: null, pausedReason: null, counts: {} as BatchSummary['counts'], creditsSpent: 0, ...patch,
});
const ended = (counts: Partial<BatchSummary['counts']>, creditsSpent: number, state: 'completed' | 'cancelled' = 'completed', credits?: 'test' | 'real') =>
  batchAttention(summary(), summary({ state, counts: counts as BatchSummary['counts'], creditsSpent }), credits ? { credits } : {})!;
const paused = (pauseCode: Exclude<PauseCode, 'user'>, pausedReason: string) => batchAttention(summary(), summary({ state: 'paused', pauseCode, pausedReason }))!;

const said: Attention[] = [
  ended({ saved: 24, failed: 1 }, 24),
  ended({ saved: 1 }, 1),
  ended({ saved: 3, unknown: 1, 'charged-no-result': 1 }, 3.5),
  ended({ saved: 2, failed: 1, unknown: 1 }, 2),
  ended({ saved: 2 }, 2, 'completed', 'test'),
  ended({ saved: 0 }, 0, 'cancelled'),
  paused('insufficient-credits', 'Insufficient credits: 1 left, 4 needed'),
  paused('budget', 'Budget of 10 credits reached'),
  paused('service-unreachable', 'service-unreachable'),
  paused('unauthorized', 'The API key was rejected'),
  paused('output-unwritable', 'The output folder cannot be written'),
  hotFolderRunAttention({ path: '/shoots/inbox/', processed: 12, failed: 1, creditsSpent: 12, lastBatchId: 'b9' })!,
  hotFolderRunAttention({ path: 'C:\\shoots\\inbox', processed: 1, failed: 0, creditsSpent: 1, lastBatchId: null })!,
];

describe('attentionText', () => {
  it('says in English exactly the sentence the core writes, for every ending, pause and hot-folder run', () => {
    for (const attention of said) {
      expect(attention.words, attention.title).toBeDefined();
      expect(attentionText(attention, translatorFor('en'))).toEqual({ title: attention.title, body: attention.body });
    }
  });

  it('says them in German, credits and counts the German way (the engine\'s own pause reason left as it is)', () => {
    const de = translatorFor('de');
    expect(attentionText(ended({ saved: 1234, failed: 1 }, 1.5), de)).toEqual({ title: 'Stapel fertig – Relight', body: '1.234 gesichert, 1 fehlgeschlagen · 1,5 Credits' });
    expect(attentionText(paused('service-unreachable', 'service-unreachable'), de)).toEqual({
      title: 'Stapel angehalten: der Dienst antwortet nicht',
      body: 'Relight: Dienst nicht erreichbar – der Stapel läuft von selbst weiter, sobald er wieder antwortet',
    });
    expect(attentionText(paused('insufficient-credits', 'Insufficient credits: 1 left, 4 needed'), de)).toEqual({
      title: 'Stapel angehalten: keine Credits mehr', body: 'Relight: Insufficient credits: 1 left, 4 needed',
    });
    expect(attentionText(said[11]!, de)).toEqual({ title: 'Überwachter Ordner fertig – inbox', body: '12 Fotos verarbeitet, 1 fehlgeschlagen · 12 Credits' });
  });

  it('says them in Japanese with no plural', () => {
    expect(attentionText(said[12]!, translatorFor('ja'))).toEqual({ title: '監視フォルダ完了 — inbox', body: '1 枚処理 · 1 クレジット' });
  });

  it('shows the English sentence when the core sent no keys, or a key this build does not know', () => {
    const de = translatorFor('de');
    const { words: _words, ...bare } = said[0]!;
    expect(attentionText(bare, de)).toEqual({ title: bare.title, body: bare.body });
    const unknown = { ...said[0]!, words: { ...said[0]!.words!, title: { key: 'attention.fromANewerCore', values: {} } } };
    expect(attentionText(unknown, de)).toEqual({ title: unknown.title, body: unknown.body });
  });
});
