import { useId, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { catalogLabels, useRichT, useT } from '../../i18n';
import { useActions, useApp } from '../../store/context';
import { creditKindOf } from '../../../shared/service/credit-kind';

const KEY_KIND_LABELS = catalogLabels('settings', { sandbox: 'key.sandbox', test: 'key.test', live: 'key.live' });

/** The key is typed here, sent to main once, and never shown again except masked. */
export function KeySection() {
  const t = useT('settings');
  const rt = useRichT('settings');
  const keyStatus = useApp((s) => s.keyStatus);
  const check = useApp((s) => s.keyCheck);
  const { setKey, reuseKey, allowKeyOrigin, deleteKey } = useActions();
  const [value, setValue] = useState('');
  const id = useId();

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const key = value.trim();
    if (!key) return;
    setValue(''); // the renderer keeps no copy, whatever the answer
    await setKey(key);
  };

  const keyKind = !keyStatus || keyStatus.mode === 'sandbox' ? 'sandbox' : creditKindOf(keyStatus) === 'test' ? 'test' : 'live';
  return (
    <section className="panel" aria-label={t('key.title')}>
      <h2 className="panel-title">{t('key.title')}</h2>
      {keyStatus && (
        <div className="key-status">
          <p>
            <span className={`badge badge-${keyKind === 'live' ? 'ok' : 'warning'}`}>{KEY_KIND_LABELS[keyKind]}</span>{' '}
            {keyStatus.keyMasked
              ? <>{t('key.inUse')} <span className="mono" aria-label={t('key.masked')}>{keyStatus.keyMasked}</span>{keyStatus.source !== 'none' && <span className="muted">{t('key.from', { source: keyStatus.source })}</span>}</>
              : <span className="muted">{t('key.none')}</span>}
          </p>
          <p className="muted">{t('key.for')} <span className="mono">{keyStatus.serviceUrl}</span></p>
          {/* Main's own sentence about the key (English, as the CLI prints it). */}
          <p className="muted" data-from="main">{keyStatus.message}</p>
          {!keyStatus.keychainAvailable && <p className="callout callout-warning">{t('key.noKeychain')}</p>}
        </div>
      )}
      {keyStatus?.awaitingOriginConfirmation && check.state !== 'checking' && (
        <div className="callout callout-warning" role="group" aria-label={t('key.confirmService')}>
          <p>
            {rt('key.envFirstUsed', { url: <span className="mono">{keyStatus.serviceUrl}</span> })}{' '}
            <button type="button" className="btn btn-small" onClick={() => void allowKeyOrigin()}>{t('key.useForService')}</button>
          </p>
        </div>
      )}
      {keyStatus && !keyStatus.hasKey && keyStatus.otherServiceKeys.length > 0 && check.state !== 'checking' && (
        // A key belongs to the service it was saved for: using it with another one is the user's decision.
        <div className="callout callout-warning" role="group" aria-label={t('key.otherService')}>
          {keyStatus.otherServiceKeys.map((other) => (
            <p key={other.serviceUrl}>
              {rt('key.savedForOther', {
                masked: <span className="mono">{other.keyMasked}</span>,
                other: <span className="mono">{other.serviceUrl}</span>,
                url: <span className="mono">{keyStatus.serviceUrl}</span>,
              })}{' '}
              <button type="button" className="btn btn-small" onClick={() => void reuseKey(other.serviceUrl)}>
                {t('key.useForService')}
              </button>
            </p>
          ))}
        </div>
      )}
      <form className="key-form" onSubmit={(e) => void submit(e)}>
        <label htmlFor={id} className="field-label">{keyStatus?.keyMasked ? t('key.replace') : t('key.enter')}</label>
        <div className="path-input">
          <input
            id={id}
            type="password"
            className="input input-mono"
            autoComplete="off"
            spellCheck={false}
            placeholder="sk_live_…"
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
          <button type="submit" className="btn btn-primary" disabled={!value.trim() || check.state === 'checking'}>
            {check.state === 'checking' ? t('key.checking') : t('key.save')}
          </button>
        </div>
        <p className="field-hint">{t('key.hint')}</p>
      </form>
      {check.state === 'ok' && <p className="callout callout-ok" role="status">{t('key.accepted', { message: check.message })}</p>}
      {check.state === 'failed' && <ErrorMessage error={check.error} />}
      {keyStatus?.keyMasked && keyStatus.source === 'keychain' && (
        <button type="button" className="btn btn-danger-ghost" onClick={() => void deleteKey()}>{t('key.remove')}</button>
      )}
    </section>
  );
}
