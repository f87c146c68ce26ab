import { useId, useState } from 'react';
import { useActions, useApp } from '../../store/context';

const ASKING = {
  'move-key': 'Send the API key saved for',
  'trust-origin': 'Send the key from your environment, first used with',
  'change-service': 'Change the service from',
  'change-ledger': 'Change the studio ledger (it receives the database password) from',
  'ledger-plaintext': 'Let the studio ledger password travel without TLS, from',
} as const;

/**
 * Main's question before a key or the photos go to a new origin. The renderer cannot answer it: in the app main
 * shows a native dialog; in the browser the code is on the terminal that started Batchroom, which the page never sees.
 */
export function ConsentPrompt() {
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
    <div className="callout callout-warning" role="alertdialog" aria-label="Confirm the new service">
      <p>
        {ASKING[consent.kind]} <span className="mono">{consent.from}</span> to <span className="mono">{consent.to}</span>?
      </p>
      {consent.via === 'dialog' ? (
        <p role="status">Answer in the Batchroom dialog.</p>
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <label htmlFor={id} className="field-label">Type the code printed in the terminal that started Batchroom</label>
          <div className="path-input">
            <input id={id} className="input input-mono" inputMode="numeric" autoComplete="off" spellCheck={false} maxLength={32} value={code} onChange={(e) => setCode(e.target.value)} />
            <button type="submit" className="btn btn-primary" disabled={!code.trim()}>Confirm</button>
            <button type="button" className="btn" onClick={() => void cancelConsent()}>Cancel</button>
          </div>
          {consent.problem && <p className="field-error" role="alert">{consent.problem}</p>}
        </form>
      )}
    </div>
  );
}
