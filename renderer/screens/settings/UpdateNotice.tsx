import { useState } from 'react';
import { useT } from '../../i18n';
import { useUpdateStatus } from './update-status';

/**
 * The app-wide notice of auto-update: "Restart to update" with the release notes once a verified download is ready;
 * while a batch or a hot folder has work in flight it says the update waits (and offers it again when the work ends);
 * a refused download (checksum, signature) is said once, until dismissed. Nothing while there is nothing to act on.
 */
export function UpdateNotice() {
  const t = useT('settings');
  const { status, install } = useUpdateStatus();
  const [dismissed, setDismissed] = useState<string | null>(null);
  if (!status?.available) return null;
  const { state, available, message } = status;
  const key = `${state}:${available.version}`;
  if (dismissed === key) return null;
  if (state === 'failed') {
    return (
      <div className="notices">
        <div className="notice notice-error update-notice" role="alert">
          <div className="notice-body"><p data-from="main">{message}</p></div>
          <button type="button" className="btn btn-icon" aria-label={t('UpdateNotice.dismiss')} onClick={() => setDismissed(key)}>✕</button>
        </div>
      </div>
    );
  }
  if (state !== 'ready' && state !== 'waiting') return null;
  return (
    <div className="notices">
      <div className={`notice update-notice${state === 'waiting' ? ' notice-warning' : ''}`} role="status">
        <div className="notice-body">
          {/* Waiting: the updater's own sentence says why (main's words, still English: docs/i18n.md). */}
          {state === 'ready' ? <p>{t('UpdateNotice.ready', { version: available.version })}</p> : <p data-from="main">{message}</p>}
          {available.releaseNotes && (
            <details>
              <summary>{t('UpdateNotice.whatsNew', { version: available.version })}</summary>
              <pre className="update-notes">{available.releaseNotes}</pre>
            </details>
          )}
        </div>
        {state === 'ready' && <button type="button" className="btn btn-primary" onClick={() => void install()}>{t('UpdateNotice.restart')}</button>}
        <button type="button" className="btn btn-icon" aria-label={t('UpdateNotice.later')} onClick={() => setDismissed(key)}>✕</button>
      </div>
    </div>
  );
}
