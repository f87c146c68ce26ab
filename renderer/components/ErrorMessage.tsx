import { useId, useState } from 'react';
import { useT } from '../i18n';
import type { UiError } from '../lib/errors';

/** An error in plain words, with the technical detail one click away. */
export function ErrorMessage({ error, onRetry }: { error: UiError; onRetry?: () => void }) {
  const t = useT('components');
  const [open, setOpen] = useState(false);
  const detailId = useId();
  return (
    <div className="error-message" role="alert">
      <span className="error-icon" aria-hidden="true">!</span>
      <div className="error-body">
        <p className="error-title">{error.title}</p>
        {error.hint && <p className="error-hint">{error.hint}</p>}
        {open && <pre id={detailId} className="error-detail">{error.detail}</pre>}
      </div>
      <div className="error-actions">
        {onRetry && <button type="button" className="btn btn-small" onClick={onRetry}>{t('ErrorMessage.tryAgain')}</button>}
        <button type="button" className="btn btn-link" aria-expanded={open} aria-controls={detailId} onClick={() => setOpen(!open)}>
          {open ? t('ErrorMessage.hideDetails') : t('ErrorMessage.details')}
        </button>
      </div>
    </div>
  );
}
