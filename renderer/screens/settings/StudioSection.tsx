import { useEffect, useId, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { SETTINGS_FIELDS } from '../../../shared/settings/schema';
import { tr, useRichT, useT } from '../../i18n';
import { useActions, useApp } from '../../store/context';
import type { StudioPasswordOutcome } from '../../store/state';
import { StudioPlaintextToggle } from './StudioPlaintextToggle';

function urlProblem(text: string): string | null {
  if (!text.trim()) return null;
  const parsed = SETTINGS_FIELDS.studioLedgerUrl.safeParse(text);
  return parsed.success ? null : parsed.error.issues[0]?.message ?? tr('settings', 'studio.notUrl');
}

/**
 * Settings › Shared studio ledger. The URL is a normal setting; the password goes to main's keychain once and is
 * never stored in settings nor shown again. "Test connection" tries the URL as typed, saved or not.
 */
export function StudioSection() {
  const t = useT('settings');
  const rt = useRichT('settings');
  const saved = useApp((s) => s.settings?.studioLedgerUrl ?? null);
  const test = useApp((s) => s.studioTest);
  const { updateSettings, testStudioConnection, saveStudioPassword, forgetStudioPassword } = useActions();
  const [url, setUrl] = useState(saved ?? '');
  const [urlError, setUrlError] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [outcome, setOutcome] = useState<StudioPasswordOutcome | null>(null);
  const ids = { url: useId(), password: useId() };
  useEffect(() => setUrl(saved ?? ''), [saved]);
  const typed = url.trim();

  const commitUrl = async () => {
    if (typed === (saved ?? '')) return;
    const problem = urlProblem(typed);
    setUrlError(problem);
    if (problem) return;
    if (!(await updateSettings({ studioLedgerUrl: typed || null }))) setUrl(saved ?? '');
  };

  const savePassword = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!password || !typed) return;
    const problem = urlProblem(typed);
    setUrlError(problem);
    if (problem) return;
    const secret = password;
    setPassword(''); // the renderer keeps no copy, whatever the answer
    const result = await saveStudioPassword(typed, secret);
    setOutcome(result);
    // Saved: check at once that the ledger takes it.
    if (result.ok) await testStudioConnection(typed);
  };

  return (
    <section className="panel" aria-label={t('studio.title')}>
      <h2 className="panel-title">{t('studio.title')}</h2>
      <p className="muted">{t('studio.intro')}</p>
      <div className="field">
        <label htmlFor={ids.url} className="field-label">{t('studio.url')}</label>
        <div className="path-input">
          <input
            id={ids.url}
            className="input input-mono"
            value={url}
            // i18n-ignore: an address to copy, the same in every language
            placeholder="postgres://user@host:5432/batchroom"
            spellCheck={false}
            autoComplete="off"
            aria-invalid={urlError ? true : undefined}
            aria-describedby={urlError ? `${ids.url}-error` : undefined}
            onChange={(e) => {
              setUrl(e.target.value);
              if (urlError) setUrlError(urlProblem(e.target.value));
            }}
            onBlur={() => void commitUrl()}
            onKeyDown={(e) => e.key === 'Enter' && void commitUrl()}
          />
          <button type="button" className="btn" disabled={!typed || test.state === 'testing'} onClick={() => void testStudioConnection(typed)}>
            {test.state === 'testing' ? t('studio.testing') : t('studio.test')}
          </button>
        </div>
        {urlError && <p id={`${ids.url}-error`} className="field-error" role="alert">{urlError}</p>}
        <p className="field-hint">{rt('studio.urlHint')}</p>
        <StudioPlaintextToggle />
      </div>
      {test.state === 'done' && (
        <p className={`callout ${test.result.ok ? 'callout-ok' : 'callout-danger'}`} role={test.result.ok ? 'status' : 'alert'} aria-label={t('studio.testResult')}>
          {t(test.result.ok ? 'studio.connected' : 'studio.notConnected', { message: test.result.message })}
        </p>
      )}
      {test.state === 'failed' && <ErrorMessage error={test.error} />}
      <form className="key-form" onSubmit={(e) => void savePassword(e)}>
        <label htmlFor={ids.password} className="field-label">{t('studio.password')}</label>
        <div className="path-input">
          <input
            id={ids.password}
            type="password"
            className="input input-mono"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <button type="submit" className="btn btn-primary" disabled={!password || !typed}>{t('studio.savePassword')}</button>
          <button type="button" className="btn btn-danger-ghost" disabled={!typed} onClick={() => void forgetStudioPassword(typed).then(setOutcome)}>{t('studio.forgetPassword')}</button>
        </div>
        <p className="field-hint">{t('studio.passwordHint')}</p>
      </form>
      {outcome && <p className={`callout ${outcome.ok ? 'callout-ok' : 'callout-danger'}`} role={outcome.ok ? 'status' : 'alert'}>{outcome.message}</p>}
    </section>
  );
}
