import { useId, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { useActions, useApp } from '../../store/context';
import { creditKindOf } from '../../../shared/service/credit-kind';

const KEY_KIND_LABELS = { sandbox: 'Sandbox', test: 'Test key', live: 'Live' } as const;

/** The key is typed here, sent to main once, and never shown again except masked. */
export function KeySection() {
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
    <section className="panel" aria-label="API key">
      <h2 className="panel-title">API key</h2>
      {keyStatus && (
        <div className="key-status">
          <p>
            <span className={`badge badge-${keyKind === 'live' ? 'ok' : 'warning'}`}>{KEY_KIND_LABELS[keyKind]}</span>{' '}
            {keyStatus.keyMasked ? <>Key in use: <span className="mono" aria-label="Masked API key">{keyStatus.keyMasked}</span>{keyStatus.source !== 'none' && <span className="muted"> (from {keyStatus.source})</span>}</> : <span className="muted">No key stored.</span>}
          </p>
          <p className="muted">For <span className="mono">{keyStatus.serviceUrl}</span></p>
          <p className="muted">{keyStatus.message}</p>
          {!keyStatus.keychainAvailable && <p className="callout callout-warning">The system keychain is not available, so a key cannot be stored here.</p>}
        </div>
      )}
      {keyStatus?.awaitingOriginConfirmation && check.state !== 'checking' && (
        <div className="callout callout-warning" role="group" aria-label="Confirm the service for this key">
          <p>
            The key from your environment was first used with another service. Send it to{' '}
            <span className="mono">{keyStatus.serviceUrl}</span>?{' '}
            <button type="button" className="btn btn-small" onClick={() => void allowKeyOrigin()}>Use it for this service</button>
          </p>
        </div>
      )}
      {keyStatus && !keyStatus.hasKey && keyStatus.otherServiceKeys.length > 0 && check.state !== 'checking' && (
        // A key belongs to the service it was saved for: using it with another one is the user's decision.
        <div className="callout callout-warning" role="group" aria-label="Key saved for another service">
          {keyStatus.otherServiceKeys.map((other) => (
            <p key={other.serviceUrl}>
              A key (<span className="mono">{other.keyMasked}</span>) is saved for <span className="mono">{other.serviceUrl}</span>, not for
              this service. Send it to <span className="mono">{keyStatus.serviceUrl}</span>?{' '}
              <button type="button" className="btn btn-small" onClick={() => void reuseKey(other.serviceUrl)}>
                Use it for this service
              </button>
            </p>
          ))}
        </div>
      )}
      <form className="key-form" onSubmit={(e) => void submit(e)}>
        <label htmlFor={id} className="field-label">{keyStatus?.keyMasked ? 'Replace the key' : 'Enter your API key'}</label>
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
            {check.state === 'checking' ? 'Checking…' : 'Save and check key'}
          </button>
        </div>
        <p className="field-hint">Stored in your system keychain, never in a file. Batchroom checks it with the service before saving.</p>
      </form>
      {check.state === 'ok' && <p className="callout callout-ok" role="status">Key saved and accepted. {check.message}</p>}
      {check.state === 'failed' && <ErrorMessage error={check.error} />}
      {keyStatus?.keyMasked && keyStatus.source === 'keychain' && (
        <button type="button" className="btn btn-danger-ghost" onClick={() => void deleteKey()}>Remove key</button>
      )}
    </section>
  );
}
