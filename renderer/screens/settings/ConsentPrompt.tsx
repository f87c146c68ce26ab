import { useId, useState } from 'react';
import type { KeyOf } from '../../../shared/i18n';
import { useRichT, useT } from '../../i18n';
import { useActions, useApp } from '../../store/context';

const ASKING: Record<string, KeyOf<'settings'>> = {
  'move-key': 'consent.moveKey',
  'trust-origin': 'consent.trustOrigin',
  'change-service': 'consent.changeService',
  'change-ledger': 'consent.changeLedger',
  'ledger-plaintext': 'consent.ledgerPlaintext',
};

/**
 * Main's question before a key or the photos go to a new origin. The renderer cannot answer it: in the app main
 * shows a native dialog; in the browser the code is on the terminal that started Batchroom, which the page never sees.
 */
export function ConsentPrompt() {
  const t = useT('settings');
  const tc = useT('common');
  const rt = useRichT('settings');
  const consent = useApp((s) => s.consent);
  const { answerConsent, cancelConsent } = useActions();
  const [code, setCode] = useState('');
  const id = useId();
  if (!consent) return null;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const typed = code.trim();
    setCode('');
    if (typed) await answerConsent(typed);
  };

  return (
    <div className="callout callout-warning" role="alertdialog" aria-label={t('consent.label')}>
      <p>
        {rt(ASKING[consent.kind] ?? 'consent.changeService', { from: <span className="mono">{consent.from}</span>, to: <span className="mono">{consent.to}</span> })}
      </p>
      {consent.via === 'dialog' ? (
        <p role="status">{t('consent.inDialog')}</p>
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <label htmlFor={id} className="field-label">{t('consent.typeCode')}</label>
          <div className="path-input">
            <input id={id} className="input input-mono" inputMode="numeric" autoComplete="off" spellCheck={false} maxLength={32} value={code} onChange={(e) => setCode(e.target.value)} />
            <button type="submit" className="btn btn-primary" disabled={!code.trim()}>{t('consent.confirm')}</button>
            <button type="button" className="btn" onClick={() => void cancelConsent()}>{tc('cancel')}</button>
          </div>
          {consent.problem && <p className="field-error" role="alert">{consent.problem}</p>}
        </form>
      )}
    </div>
  );
}
